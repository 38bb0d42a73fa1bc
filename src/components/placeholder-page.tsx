/** An honest stand-in for a screen built by a later issue: it names what will come. */
export function PlaceholderPage({ title, coming }: { title: string; coming: string }) {
  return (
    <section className="page placeholder-page">
      <h1>{title}</h1>
      <p className="placeholder-note">This screen is not built yet.</p>
      <p>{coming}</p>
    </section>
  );
}
