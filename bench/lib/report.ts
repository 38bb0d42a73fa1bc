// The bench's pass/fail rows: printed as a table and stored in bench/results/*.json.
import type { Spread } from './stats.ts';

export interface TargetRow {
  target: string;
  /** Input size the row was measured at ('' when it does not depend on one). */
  size: string;
  /** Median value (the unit is in `measured`). */
  value: number;
  spread: Spread | null;
  measured: string;
  goal: string;
  /** null: the row only informs (no target at this size). */
  pass: boolean | null;
}

export function formatSize(n: number): string {
  const exponent = Math.log10(n);
  return Number.isInteger(exponent) ? `10^${exponent}` : String(n);
}

function digits(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** "12.3× (IQR 11.8–12.9, range 10.1–14.2)" */
export function formatSpread(s: Spread, unit: string): string {
  return `${digits(s.median)}${unit} (IQR ${digits(s.q1)}–${digits(s.q3)}, range ${digits(s.min)}–${digits(s.max)})`;
}

/**
 * A row judged on the median of its rounds, printed with their spread; `pass` null makes it an
 * `(info)` row (no target, or a contender doing work the product never does).
 */
export function medianRow(
  target: string,
  size: string,
  s: Spread,
  unit: string,
  goal: string,
  pass: ((median: number) => boolean) | null,
): TargetRow {
  return {
    target,
    size,
    value: s.median,
    spread: s,
    measured: formatSpread(s, unit),
    goal,
    pass: pass === null ? null : pass(s.median),
  };
}

export function printTable(rows: readonly TargetRow[]): void {
  const header = ['target', 'n', 'measured: median (IQR, range)', 'goal', 'result'];
  const verdict = (pass: boolean | null) => (pass === null ? '—' : pass ? 'PASS' : 'FAIL');
  const cells = rows.map((r) => [r.target, r.size, r.measured, r.goal, verdict(r.pass)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
  const targets = rows.filter((r) => r.pass !== null);
  const failed = targets.filter((r) => !r.pass).length;
  console.log(
    `\n${targets.length - failed} of ${targets.length} targets met${failed ? `, ${failed} FAIL` : ''}.`,
  );
}
