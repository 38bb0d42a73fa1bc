// An audit entry's old → new as readable lines, shared at runtime by /audit and the PDF's 'Record
// history' (a pure module without imports, so the web app can bundle it).

/** How the trail writes "no value": a field absent, null or empty. */
export const NO_VALUE = '—';
/** /audit cuts longer values on the line; the whole value is a click (or Enter) away. */
export const LINE_LIMIT = 160;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** A value on one line: text as is, anything else as JSON. */
const inline = (value: unknown) =>
  isEmpty(value) ? NO_VALUE : typeof value === 'string' ? value : JSON.stringify(value);

/** A value in full: text as is, anything else as indented JSON. */
const whole = (value: unknown) =>
  isEmpty(value) ? NO_VALUE : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

/** Text cut to `limit` characters, with an ellipsis when it was longer. */
export const cut = (text: string, limit = LINE_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit)}…` : text;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A record's nested records as dotted fields ('signature.printedName'), so a signature or a
 * detection reads field by field rather than as one JSON text cut at the line's end.
 */
function flatten(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (isObject(field) && Object.keys(field).length > 0) {
      Object.assign(fields, flatten(field, `${prefix}${key}.`));
    } else fields[`${prefix}${key}`] = field;
  }
  return fields;
}

/**
 * One changed field: `line` reads it on one line (long values cut); `full` is set when something
 * was cut, with each side whole (`old` absent where the line shows no old side).
 */
export interface Change {
  line: string;
  full: { old?: string; new: string } | null;
}

function change(key: string | null, sides: { old?: unknown; new: unknown }, limit: number): Change {
  const texts = [...('old' in sides ? [inline(sides.old)] : []), inline(sides.new)];
  const line = `${key === null ? '' : `${key}: `}${texts.map((text) => cut(text, limit)).join(' → ')}`;
  const wasCut = texts.some((text) => text.length > limit);
  return {
    line,
    full: wasCut
      ? { ...('old' in sides ? { old: whole(sides.old) } : {}), new: whole(sides.new) }
      : null,
  };
}

/** A record's fields, leaving out the empty ones and the reason (it is shown on its own). */
const fieldChanges = (value: Record<string, unknown>, removed: boolean, limit: number) =>
  Object.entries(flatten(value))
    .filter(([key, field]) => !isEmpty(field) && key !== 'reason')
    .map(([key, field]) =>
      change(key, removed ? { old: field, new: null } : { new: field }, limit),
    );

/**
 * Old → new per field that changed, nested records field by field; a record created or removed
 * as its fields; the whole value
 * when not objects. Absent, null and empty all read '—', and a field that goes from one of them
 * to another did not change. Each value is cut at `limit` characters.
 */
export function changes(oldValue: unknown, newValue: unknown, limit = LINE_LIMIT): Change[] {
  if (isEmpty(oldValue) && isEmpty(newValue)) return [];
  if (isEmpty(oldValue) && isObject(newValue)) return fieldChanges(newValue, false, limit);
  if (isObject(oldValue) && isEmpty(newValue)) return fieldChanges(oldValue, true, limit);
  if (!isObject(oldValue) || !isObject(newValue)) {
    return [
      change(null, isEmpty(oldValue) ? { new: newValue } : { old: oldValue, new: newValue }, limit),
    ];
  }
  const [before, after] = [flatten(oldValue), flatten(newValue)];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => !(isEmpty(before[key]) && isEmpty(after[key])))
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => change(key, { old: before[key], new: after[key] }, limit));
}
