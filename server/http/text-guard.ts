// Strings no route takes, refused before validation with a 400 naming the field. PostgreSQL text
// cannot hold U+0000: a string with it would fail inside a query, as a 500 after the request had
// been checked. And a body's strings are stored and shown to others: a direction control in one
// would make it display as other text (U+202E turns '1402-AP' into 'PA-2041' on the report).
import type { FastifyInstance } from 'fastify';
import {
  DIRECTION_CONTROLS,
  directionControlRefusal,
  LONE_SURROGATE,
  loneSurrogateRefusal,
  writtenOut,
} from '../schemas/text-rules.ts';
import { badRequest } from './errors.ts';

/** Why a string is refused, as the 400 message naming where it was found. */
type Refusal = (path: string) => string;
/** The refusal of `text` (found under `key`), or undefined when the rule takes it. */
export type TextRule = (text: string, key: string) => Refusal | undefined;

const NUL = '\u0000';
const noNul: TextRule = (text) =>
  text.includes(NUL) ? (path) => `${path} must not contain the NUL character (U+0000)` : undefined;

const DIRECTION_CONTROL = new RegExp(`[${DIRECTION_CONTROLS}]`);
/** Secrets are never shown, and one set before this rule must still sign its owner in. */
const SECRET_KEY = /password$/i;
const noDirectionControl: TextRule = (text, key) => {
  if (SECRET_KEY.test(key)) return undefined;
  const control = DIRECTION_CONTROL.exec(text)?.[0];
  return control === undefined ? undefined : (path) => directionControlRefusal(path, control);
};

const noLoneSurrogate: TextRule = (text, key) => {
  if (SECRET_KEY.test(key)) return undefined;
  const half = LONE_SURROGATE.exec(text)?.[0];
  return half === undefined ? undefined : (path) => loneSurrogateRefusal(path, half);
};

/** Parameters and queries: only what cannot be stored (they select, they are not shown). */
export const PARAMETER_RULES: readonly TextRule[] = [noNul];
/** A JSON body or form fields: stored as sent and shown, so nothing may display as other text. */
export const BODY_RULES: readonly TextRule[] = [noNul, noDirectionControl, noLoneSurrogate];

interface Visit {
  value: unknown;
  /** A property name, or an array index (named only when a refusal needs the path). */
  key: string | number;
  parent: Visit | undefined;
  /** Containers above it: 0 for the body itself. */
  depth: number;
}

/**
 * No route takes a value nested deeper (the deepest body, the ingest API's results, is 4 deep):
 * deeper, an undeclared field's nesting would reach code that recurses (structuredClone,
 * JSON.stringify) and overflow its stack, a 500 for bad input.
 */
export const MAX_NESTING = 32;

/** A key holding a refused character is named with it escaped: the message must be storable and read as is. */
const ESCAPED_IN_PATHS = new RegExp(
  `[\\u0000${DIRECTION_CONTROLS}]|${LONE_SURROGATE.source}`,
  'gu',
);

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at; at = at.parent) keys.push(String(at.key));
  return keys.reverse().join('.').replaceAll(ESCAPED_IN_PATHS, writtenOut);
}

/**
 * Arrays and plain objects: what JSON, a query string or the route's parameters parse into. A
 * body some parser leaves as a stream (a video upload) is not walked: its object graph reaches
 * the socket and the server, and loops.
 */
function isParsed(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  // Object.prototype, or the query parser's own bare prototype: either way, one step from null.
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function refusalOf(text: string, key: string, rules: readonly TextRule[]): Refusal | undefined {
  for (const rule of rules) {
    const refusal = rule(text, key);
    if (refusal) return refusal;
  }
  return undefined;
}

/**
 * The 400 message for the first string (value or key) in `value` that one of `rules` refuses,
 * named from `base` (e.g. `body.notes`), or undefined. Walks without recursion: a body nested
 * thousands deep must not overflow the stack. With `toNfc`, each string value but a secret is
 * replaced by its NFC form on the way ('Cafe\u0301' by 'Café'): text that looks the same is
 * stored the same, so two names or batches that print alike compare alike.
 */
export function refusedText(
  value: unknown,
  base: string,
  rules: readonly TextRule[],
  toNfc = false,
): string | undefined {
  const stack: Visit[] = [];
  // Only strings are checked and only containers are pushed: a capture body holds millions of
  // numbers, and a visit (or an index listed as a key) for each cost seconds and gigabytes.
  const visit = (child: unknown, key: string | number, parent?: Visit): string | undefined => {
    const depth = parent ? parent.depth + 1 : 0;
    if (typeof child === 'string') {
      let text = child;
      // A secret is compared as typed: one set before this rule must still sign its owner in.
      if (toNfc && parent && !SECRET_KEY.test(String(key))) {
        text = child.normalize('NFC');
        if (text !== child) (parent.value as Record<string | number, unknown>)[key] = text;
      }
      const refusal = refusalOf(text, String(key), rules);
      if (refusal) return refusal(pathOf({ value: text, key, parent, depth }));
    } else if (isParsed(child)) {
      const container = { value: child, key, parent, depth };
      if (depth > MAX_NESTING) {
        return `${pathOf(container)} is nested more than ${MAX_NESTING} levels deep`;
      }
      stack.push(container);
    }
    return undefined;
  };
  const refusedRoot = visit(value, base);
  if (refusedRoot) return refusedRoot;
  for (let at = stack.pop(); at; at = stack.pop()) {
    const item = at.value;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        const refused = visit(item[index], index, at);
        if (refused) return refused;
      }
    } else {
      for (const key in item as object) {
        if (!Object.hasOwn(item as object, key)) continue;
        const refusal = refusalOf(key, key, rules);
        if (refusal)
          return refusal(pathOf({ value: undefined, key, parent: at, depth: at.depth + 1 }));
        const refused = visit((item as Record<string, unknown>)[key], key, at);
        if (refused) return refused;
      }
    }
  }
  return undefined;
}

/**
 * Refuses such strings, and values nested too deep, in the parameters, query or JSON body before
 * any route sees them; the body's strings go on in NFC.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const message =
      refusedText(request.params, 'params', PARAMETER_RULES) ??
      refusedText(request.query, 'query', PARAMETER_RULES) ??
      refusedText(request.body, 'body', BODY_RULES, true);
    done(message ? badRequest(message) : undefined);
  });
}
