// Canonical JSON (sorted keys, no whitespace) for hashing a record: the same content always gives
// the same bytes, whatever order its fields were built or stored in (jsonb reorders keys).
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined inside an object is dropped below; on its own it hashes as null.
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}
