// Being built now (issue 6): replaced by the wizard within this session.
export default function FloorplanManagerPage() {
  return <h1>Floorplan Manager</h1>;
}
