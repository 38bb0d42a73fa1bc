import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function OperatorDashboardPage() {
  return (
    <PlaceholderPage
      title="Operator Dashboard"
      coming="Here operators will pick a line clearance, scan its QR codes and record and upload the inspection video."
    />
  );
}
