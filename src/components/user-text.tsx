/**
 * Text a person typed (notes, reasons), shown as typed: each line on its own line, each taking its
 * own direction, so a Hebrew or Arabic line among Polish ones is not reordered into them, and the
 * screen agrees with the PDF, which prints the lines too.
 */
export function UserText({ text }: { text: string }) {
  const lines = text.split(/\r\n?|\n|[\u2028\u2029]/);
  return (
    <>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their place.
        <span key={i} dir="auto" className="user-text-line">
          {line}
        </span>
      ))}
    </>
  );
}
