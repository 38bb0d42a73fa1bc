import { useId, useLayoutEffect, useRef, useState } from 'react';

/**
 * Text a person typed (notes, reasons), shown as typed: each line on its own line, blank ones
 * too, each taking its own direction, so a Hebrew or Arabic line among Polish ones is not
 * reordered into them, and the screen agrees with the PDF, which prints the lines too.
 */
export function UserText({ text }: { text: string }) {
  const lines = text.split(/\r\n?|\n|[\u2028\u2029]/);
  return (
    <>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their place.
        <span key={i} dir="auto" className="user-text-line wrap-anywhere">
          {line}
        </span>
      ))}
    </>
  );
}

/**
 * Long typed text on a card (a line's description, up to 2000 characters), cut to a few lines so
 * the card stays short, with 'Show all' and 'Show less' when it is cut.
 */
export function ClampedUserText({
  text,
  about,
  empty,
}: {
  /** Null or empty: `empty` is shown instead. */
  text: string | null | undefined;
  /** What the text is, naming the button among the cards' ('Description of Blister Line 1'). */
  about: string;
  empty: string;
}) {
  // Mounted afresh when a text arrives, so it is measured from its first frame.
  return text ? <Clamped text={text} about={about} /> : empty;
}

function Clamped({ text, about }: { text: string; about: string }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    const whole = element?.firstElementChild;
    // Measured only while clamped: shown whole, the text is never cut.
    if (!element || !whole || expanded) return;
    // Again when the card's width changes, or the text (the whole text's height then does).
    const observer = new ResizeObserver(() => setCut(element.scrollHeight > element.clientHeight));
    observer.observe(element);
    observer.observe(whole);
    return () => observer.disconnect();
  }, [expanded]);
  const toggle = expanded ? 'Show less' : 'Show all';
  return (
    <>
      <div id={id} ref={box} className={expanded ? undefined : 'user-text-clamped'}>
        <div>
          <UserText text={text} />
        </div>
      </div>
      {cut && (
        <button
          type="button"
          className="btn btn-ghost"
          aria-expanded={expanded}
          aria-controls={id}
          aria-label={`${toggle}: ${about}`}
          onClick={() => setExpanded(!expanded)}
        >
          {toggle}
        </button>
      )}
    </>
  );
}
