// Size caps for what an audit entry stores from a request: the text columns a caller can fill
// (a tried email, a route, an address) are bounded, so refused or failed requests cannot grow the
// append-only table by more than a few hundred bytes each.
export const AUDIT_TEXT_LIMITS = {
  actorEmail: 320,
  action: 100,
  entity: 100,
  entityId: 200,
  ip: 64,
} as const;

/** The text cut to `max` characters, marked with an ellipsis when cut. */
export function capText(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

export const capOptional = (value: string | null, max: number) =>
  value === null ? null : capText(value, max);
