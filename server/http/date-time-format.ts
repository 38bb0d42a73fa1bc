// The 'date-time' format of every request schema, narrowed to what the database can store:
// RFC 3339 text (TypeBox's own check) that also names a real instant (no leap second such as
// 23:59:60, which JavaScript cannot represent) in the years 0001–9999 (PostgreSQL has no year 0).
// Anything else answers 400 naming the field, never a 500 from the driver.
import { Format } from 'typebox/format';

const MIN = Date.parse('0001-01-01T00:00:00Z');
const MAX = Date.parse('9999-12-31T23:59:59.999Z');

export function isStorableDateTime(value: string, rfc3339: (value: string) => boolean): boolean {
  if (!rfc3339(value)) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= MIN && time <= MAX;
}

let registered = false;

export function registerStorableDateTime(): void {
  if (registered) return;
  const rfc3339 = Format.Get('date-time');
  if (!rfc3339) throw new Error("TypeBox has no 'date-time' format to narrow");
  Format.Set('date-time', (value) => isStorableDateTime(value, rfc3339));
  registered = true;
}
