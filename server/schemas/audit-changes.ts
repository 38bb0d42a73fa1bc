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

/** A value holding fields or items of its own: a record, a point, a list. */
const isStructured = (value: unknown) => typeof value === 'object' && value !== null;

/** An old item and the new one it became; one side absent for an item removed or added. */
interface ItemPair {
  old?: { index: number; value: unknown };
  new?: { index: number; value: unknown };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The items' `id` (or `_id`) when every item has one and no two share it, else null. */
function itemIds(items: unknown[]): (string | number)[] | null {
  const ids = items.map((item) => (isObject(item) ? (item.id ?? item._id) : undefined));
  const valid = ids.every((id) => typeof id === 'string' || typeof id === 'number');
  return valid && new Set(ids).size === ids.length ? (ids as (string | number)[]) : null;
}

/** Pairs by id: each new item with the old one of its id, then the old items no new one has. */
function pairsById(
  before: unknown[],
  after: unknown[],
  ids: { old: (string | number)[]; new: (string | number)[] },
): ItemPair[] {
  const oldIndex = new Map(ids.old.map((id, index) => [id, index]));
  const kept = new Set(ids.new);
  const pairs: ItemPair[] = ids.new.map((id, index) => {
    const was = oldIndex.get(id);
    return {
      ...(was === undefined ? {} : { old: { index: was, value: before[was] } }),
      new: { index, value: after[index] },
    };
  });
  ids.old.forEach((id, index) => {
    if (!kept.has(id)) pairs.push({ old: { index, value: before[index] } });
  });
  return pairs;
}

/** Above this many compared item pairs, items between unchanged ends are paired in order. */
const MAX_ALIGNED_CELLS = 1_000_000;

/**
 * Which old items stay unchanged in the new list: a longest common subsequence of equal items
 * between the unchanged ends, as [old index, new index], in order.
 */
function unchangedItems(before: string[], after: string[]): [number, number][] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let [oldEnd, newEnd] = [before.length, after.length];
  while (oldEnd > start && newEnd > start && before[oldEnd - 1] === after[newEnd - 1]) {
    oldEnd--;
    newEnd--;
  }
  const ends = (from: number, to: number, shift: number): [number, number][] =>
    Array.from({ length: to - from }, (_, i) => [from + i, from + i + shift]);
  const [rows, cols] = [oldEnd - start, newEnd - start];
  const middle: [number, number][] = [];
  if (rows > 0 && cols > 0 && rows * cols <= MAX_ALIGNED_CELLS) {
    // longest[i * (cols + 1) + j]: the common items of the middle's old items from i and new from j.
    const longest = new Uint32Array((rows + 1) * (cols + 1));
    const at = (i: number, j: number) => i * (cols + 1) + j;
    for (let i = rows - 1; i >= 0; i--) {
      for (let j = cols - 1; j >= 0; j--) {
        longest[at(i, j)] =
          before[start + i] === after[start + j]
            ? (longest[at(i + 1, j + 1)] ?? 0) + 1
            : Math.max(longest[at(i + 1, j)] ?? 0, longest[at(i, j + 1)] ?? 0);
      }
    }
    for (let i = 0, j = 0; i < rows && j < cols; ) {
      if (before[start + i] === after[start + j]) {
        middle.push([start + i, start + j]);
        i++;
        j++;
      } else if ((longest[at(i + 1, j)] ?? 0) >= (longest[at(i, j + 1)] ?? 0)) i++;
      else j++;
    }
  }
  return [...ends(0, start, 0), ...middle, ...ends(oldEnd, before.length, newEnd - oldEnd)];
}

/**
 * Pairs by content: the items left between two unchanged ones are paired in order (an edited
 * item), the rest of the longer side removed or added. So an item inserted in the middle reads as
 * one added item, not as every later item changed.
 */
function pairsByContent(before: unknown[], after: unknown[]): ItemPair[] {
  const texts = (items: unknown[]) => items.map((item) => JSON.stringify(item) ?? '');
  const anchors = [...unchangedItems(texts(before), texts(after)), [before.length, after.length]];
  const pairs: ItemPair[] = [];
  let [i, j] = [0, 0];
  for (const [oldAnchor, newAnchor] of anchors as [number, number][]) {
    for (; i < oldAnchor || j < newAnchor; i++, j++) {
      pairs.push({
        ...(i < oldAnchor ? { old: { index: i, value: before[i] } } : {}),
        ...(j < newAnchor ? { new: { index: j, value: after[j] } } : {}),
      });
    }
    [i, j] = [oldAnchor + 1, newAnchor + 1];
  }
  return pairs;
}

/**
 * A list of records (tags, hot zones, points) item by item: `tags[0] (a).name: a → b`, an item added
 * or removed whole. Items are matched by `id`/`_id` where every item has one, else by content. A
 * list that only changed order reads as its two whole values.
 */
function listChanges(key: string, before: unknown[], after: unknown[], limit: number): Change[] {
  const ids = { old: itemIds(before), new: itemIds(after) };
  const pairs =
    ids.old && ids.new
      ? pairsById(before, after, { old: ids.old, new: ids.new })
      : pairsByContent(before, after);
  const found = pairs.flatMap((pair): Change[] => {
    if (!pair.new) {
      return [
        change(`${key}[${pair.old?.index}] (removed)`, { old: pair.old?.value, new: null }, limit),
      ];
    }
    const item = `${key}[${pair.new.index}]`;
    if (!pair.old) return [change(`${item} (added)`, { old: null, new: pair.new.value }, limit)];
    const [was, is] = [pair.old.value, pair.new.value];
    if (sameValue(was, is)) return [];
    if (isObject(was) && isObject(is)) {
      // Named as the reader knows it (its name before the change), not by position alone.
      const named = typeof was.name === 'string' && was.name ? `${item} (${was.name})` : item;
      return recordChanges(was, is, limit, `${named}.`);
    }
    return [change(item, { old: was, new: is }, limit)];
  });
  return found.length > 0 ? found : [change(key, { old: before, new: after }, limit)];
}

/** Old → new per field of two records that differs, lists of records item by item. */
function recordChanges(
  oldValue: Record<string, unknown>,
  newValue: Record<string, unknown>,
  limit: number,
  prefix = '',
): Change[] {
  const [before, after] = [flatten(oldValue, prefix), flatten(newValue, prefix)];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => !(isEmpty(before[key]) && isEmpty(after[key])))
    .filter((key) => !sameValue(before[key], after[key]))
    .flatMap((key) => {
      const [was, is] = [before[key], after[key]];
      return Array.isArray(was) && Array.isArray(is) && [...was, ...is].some(isStructured)
        ? listChanges(key, was, is, limit)
        : [change(key, { old: was, new: is }, limit)];
    });
}

/**
 * Old → new per field that changed, nested records field by field and lists of records item by
 * item (a list of plain values, such as roles, whole); a record created or removed as its fields;
 * the whole value when not objects. Absent, null and empty all read '—', and a field that goes
 * from one of them to another did not change. Each value is cut at `limit` characters.
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
  return recordChanges(oldValue, newValue, limit);
}
