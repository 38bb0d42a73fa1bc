import { type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import './report-table.css';

export const tableScrollStrings = {
  hint: 'Scroll sideways for more columns',
} as const;

interface Overflow {
  /** The table is wider than its frame. */
  scrolls: boolean;
  /** Columns hidden to the left (scrolled away from the start). */
  before: boolean;
  /** Columns hidden to the right. */
  after: boolean;
}

const none: Overflow = { scrolls: false, before: false, after: false };

function measure(element: HTMLElement): Overflow {
  const hidden = element.scrollWidth - element.clientWidth;
  if (hidden <= 1) return none;
  return { scrolls: true, before: element.scrollLeft > 1, after: element.scrollLeft < hidden - 1 };
}

/**
 * A table's frame that scrolls sideways when the table is wider than the screen (a phone), and
 * then says so: a visible hint, a shadow on each edge that hides columns, and a keyboard-focusable
 * scroll region named `label` (so arrow keys scroll it). A table that fits shows none of these.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [overflow, setOverflow] = useState<Overflow>(none);

  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const update = () => {
      const next = measure(element);
      setOverflow((current) =>
        current.scrolls === next.scrolls &&
        current.before === next.before &&
        current.after === next.after
          ? current
          : next,
      );
    };
    update();
    // The frame narrows with the screen; the table widens as rows load or wrap differently.
    const resized = new ResizeObserver(update);
    resized.observe(element);
    for (const child of element.children) resized.observe(child);
    element.addEventListener('scroll', update, { passive: true });
    return () => {
      resized.disconnect();
      element.removeEventListener('scroll', update);
    };
  }, []);

  const edges = [
    'table-scroll-frame',
    overflow.before && 'table-scroll-more-before',
    overflow.after && 'table-scroll-more-after',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="table-scroll">
      {overflow.scrolls && (
        <p className="table-scroll-hint" id={hintId}>
          {tableScrollStrings.hint} <span aria-hidden="true">→</span>
        </p>
      )}
      <div className={edges}>
        <div
          ref={frame}
          className="report-table-scroll"
          {...(overflow.scrolls && {
            role: 'region',
            'aria-label': label,
            'aria-describedby': hintId,
            tabIndex: 0,
          })}
        >
          {children}
        </div>
      </div>
    </div>
  );
}
