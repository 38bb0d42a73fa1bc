// A checked body keeps only the fields its schema declares: no route can spread a field it was
// never meant to take into a record (a client-chosen user id was stored as `*`). Walked by the
// schema, not the value: arrays of numbers (a capture's millions of motion samples) are skipped,
// and a value nested deeper than its schema is never visited.
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

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

const compiled = new WeakMap<JsonSchema, Validator>();
/** The compiled check of a union member (the interpreted one read every number of a capture). */
function matches(schema: JsonSchema, value: unknown): boolean {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema as TSchema);
    compiled.set(schema, validator);
  }
  return validator.Check(value);
}

/**
 * The union member whose fields `value` keeps. Members whose type is not the value's are passed
 * over without a check (Nullable(X) is X for an object). Of several that
 * take it, the one declaring the most of its keys: TypeBox objects are open, so a value meant for
 * a richer member also passes a poorer one, which would drop the richer one's fields.
 */
function unionMember(members: JsonSchema[], value: unknown): JsonSchema | undefined {
  const kind = Array.isArray(value) ? 'array' : isPlainObject(value) ? 'object' : null;
  if (!kind) return undefined;
  const sameKind = members.filter((member) => member.type === undefined || member.type === kind);
  // A member open to any fields (a record, an unknown value) that takes it: it is kept whole.
  if (sameKind.some((member) => !canHoldObjects(member) && matches(member, value)))
    return undefined;
  const candidates = sameKind.filter(canHoldObjects);
  if (candidates.length <= 1) return candidates[0];
  const keys = kind === 'object' ? Object.keys(value as object) : [];
  const declaredCount = (member: JsonSchema) => {
    const fields = declared(member);
    return fields ? keys.filter((key) => fields.has(key)).length : keys.length;
  };
  let best: JsonSchema | undefined;
  for (const member of candidates) {
    if (!matches(member, value)) continue;
    if (!best || declaredCount(member) > declaredCount(best)) best = member;
  }
  return best;
}

/**
 * Deletes, in place, every property of `value` that `schema` does not declare, at every level the
 * schema describes. `value` has passed the schema's check; of a union, `unionMember` decides.
 */
export function dropUndeclaredFields(schema: TSchema, value: unknown): void {
  const s = schema as JsonSchema;
  if (!canHoldObjects(s)) return;
  if (s.anyOf) {
    const member = unionMember(s.anyOf, value);
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
