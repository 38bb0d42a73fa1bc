import { useParams } from 'wouter';
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function InspectionReportPage() {
  const { inspectionId } = useParams<{ inspectionId: string }>();
  return (
    <PlaceholderPage
      title="Inspection Report"
      coming={`Here the report of inspection ${inspectionId} will show: the video, the path on the floorplan, the detections and the approval record.`}
    />
  );
}
