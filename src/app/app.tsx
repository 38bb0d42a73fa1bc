/** The app shell. Screens arrive with their issues (web app shell, video analysis, floor-plan manager). */
export function App() {
  return (
    <main>
      <h1>Line Clearance</h1>
      <p>Record, analyse and review line clearance inspections.</p>
    </main>
  );
}
