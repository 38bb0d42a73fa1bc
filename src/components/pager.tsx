export interface PageStep {
  label: string;
  onClick(): void;
  /** False on the first or the last page: nowhere to go. */
  available: boolean;
}

/**
 * Back and forward through a list's pages. A step with nowhere to go stays focusable and does
 * nothing (aria-disabled): `disabled` would drop the focus to <body> just as the last page showed.
 */
export function Pager({
  label,
  className,
  steps,
}: {
  label: string;
  className: string;
  steps: readonly [PageStep, PageStep];
}) {
  return (
    <nav className={className} aria-label={label}>
      {steps.map((step) => (
        <button
          key={step.label}
          type="button"
          className="btn btn-secondary"
          aria-disabled={step.available ? undefined : true}
          onClick={step.available ? step.onClick : undefined}
        >
          {step.label}
        </button>
      ))}
    </nav>
  );
}

/**
 * What the shown page holds, said politely whenever it changes ('Page 2: 25 reports'), or `none`
 * when nothing matches. Empty while the first page loads.
 */
export function PageStatus({
  page,
  count,
  noun,
  none,
}: {
  page: number;
  count: number | null;
  /** Singular and plural: ['report', 'reports']. */
  noun: readonly [string, string];
  none: string;
}) {
  let text = '';
  if (count === 0) text = none;
  else if (count !== null) text = `Page ${page}: ${count} ${noun[count === 1 ? 0 : 1]}`;
  return (
    <p className={count ? 'muted' : undefined} role="status">
      {text}
    </p>
  );
}
