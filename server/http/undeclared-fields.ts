// A checked body keeps only the fields its schema declares: no route can spread a field it was
// never meant to take into a record (a client-chosen user id was stored as `*`). Walked by the
// schema, not the value: arrays of numbers (a capture's millions of motion samples) are skipped,
// and a value nested deeper than its schema is never visited.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** The properties an object schema declares, or null when it takes others too (a record, `{}`). */
function declared(schema: JsonSchema): Map<string, JsonSchema> | null {
  if (schema.allOf) {
    const all = new Map<string, JsonSchema>();
    for (const part of schema.allOf) {
      const keys = declared(part);
      if (!keys) return null;
      for (const [key, property] of keys) if (!all.has(key)) all.set(key, property);
    }
    return all;
  }
  if (!schema.properties || schema.additionalProperties || schema.patternProperties) return null;
  return new Map(Object.entries(schema.properties));
}

/** Whether any value under `schema` can be an object with undeclared fields to drop (memoized). */
const holdsObjects = new WeakMap<JsonSchema, boolean>();
function canHoldObjects(schema: JsonSchema): boolean {
  const known = holdsObjects.get(schema);
  if (known !== undefined) return known;
  holdsObjects.set(schema, false); // a schema that refers to itself adds nothing of its own
  const items = schema.items === undefined ? [] : [schema.items].flat();
  const parts = [
    ...(schema.anyOf ?? []),
    ...(schema.allOf ?? []),
    ...items,
    ...Object.values(schema.properties ?? {}),
  ];
  const result = declared(schema) !== null || parts.some(canHoldObjects);
  holdsObjects.set(schema, result);
  return result;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
};

/**
 * Deletes, in place, every property of `value` that `schema` does not declare, at every level the
 * schema describes. `value` has passed the schema's check: of a union, the first member it matches
 * decides.
 */
export function dropUndeclaredFields(schema: TSchema, value: unknown): void {
  const s = schema as JsonSchema;
  if (!canHoldObjects(s)) return;
  if (s.anyOf) {
    const member = s.anyOf.find((candidate) => Value.Check(candidate as TSchema, value));
    if (member) dropUndeclaredFields(member as TSchema, value);
    return;
  }
  if (Array.isArray(value)) {
    const items = s.items;
    if (items === undefined) return;
    value.forEach((item, index) => {
      const itemSchema = Array.isArray(items) ? items[index] : items;
      if (itemSchema) dropUndeclaredFields(itemSchema as TSchema, item);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const keys = declared(s);
  if (!keys) return;
  for (const key of Object.keys(value)) {
    const property = keys.get(key);
    if (property) dropUndeclaredFields(property as TSchema, value[key]);
    else delete value[key];
  }
}
