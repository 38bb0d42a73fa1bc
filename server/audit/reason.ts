// The reason an audit entry records, where one was given: a refusal's or a failure's reason, a
// dismissal's reason, the reason for a change or deletion (audit/change-reason.ts), a signature's
// notes. One rule for the trail's API (each entry's `reason`, which /audit shows) and its CSV export.

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entry's new value's `reason`, else its signature's `notes`; null when neither is text. */
export function auditReason(newValue: unknown): string | null {
  const value = isObject(newValue) ? newValue : null;
  const signature = value && isObject(value.signature) ? value.signature : null;
  const reason = value?.reason ?? signature?.notes;
  return typeof reason === 'string' && reason ? reason : null;
}
