import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function ReportsPage() {
  return (
    <PlaceholderPage
      title="Reports"
      coming="Here managers and auditors will find inspection reports with the interactive timeline and path visualisation."
    />
  );
}
