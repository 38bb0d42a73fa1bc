// PostgreSQL text cannot hold U+0000: a string with it would fail inside a query, as a 500 after
// the request had been checked. Every route refuses it first, with a 400 naming the field.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

const NUL = '\u0000';

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

/** A key holding U+0000 is named with it escaped: the message must be storable too. */
function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.').replaceAll(NUL, '\\u0000');
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

/**
 * The path of the first string (value or key) in `value` that holds U+0000, e.g. `body.notes`, or
 * undefined. Walks without recursion: a body nested thousands deep must not overflow the stack.
 */
export function nulPath(value: unknown, base: string): string | undefined {
  const stack: Visit[] = [{ value, key: base, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const item = visit.value;
    if (typeof item === 'string') {
      if (item.includes(NUL)) return pathOf(visit);
    } else if (isParsed(item)) {
      for (const [key, child] of Object.entries(item)) {
        const next = { value: child, key, parent: visit };
        if (key.includes(NUL)) return pathOf(next);
        stack.push(next);
      }
    }
  }
  return undefined;
}

export const nulMessage = (path: string) => `${path} must not contain the NUL character (U+0000)`;

/** Refuses a parameter, query or JSON body holding U+0000 before any route sees it. */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const path =
      nulPath(request.params, 'params') ??
      nulPath(request.query, 'query') ??
      nulPath(request.body, 'body');
    done(path ? badRequest(nulMessage(path)) : undefined);
  });
}
