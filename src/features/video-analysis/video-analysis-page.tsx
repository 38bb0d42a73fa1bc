// Being built now (issue 5): replaced by the page within this session.
export default function VideoAnalysisPage() {
  return <h1>Video Analysis</h1>;
}
