import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function AnalysisPage() {
  return (
    <PlaceholderPage
      title="Analysis"
      coming="Here operators and managers will see the results of recent inspections: the walked path and the detections."
    />
  );
}
