import { useParams } from 'wouter';
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function InspectionPage() {
  const { areaId } = useParams<{ areaId: string }>();
  return (
    <PlaceholderPage
      title="Inspection"
      coming={`Here the operator will run the inspection of line clearance ${areaId}: scan its QR tags and record the video.`}
    />
  );
}
