// Turns schema validation errors into one message that names the field, e.g.
// "body.email is required" or "query.userIds.0 must be a record id (24 lower-case hex digits)".
import type { FastifySchemaValidationError } from 'fastify';
import { patternMeaning } from '../schemas/common.ts';

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query' };

export function validationMessage(errors: FastifySchemaValidationError[], context: string): string {
  const base = CONTEXT_NAMES[context] ?? context;
  // TypeBox reports `additionalProperties: false` twice; the keyword error is the readable one.
  const first = errors.find((e) => e.keyword !== 'boolean') ?? errors[0];
  if (!first) return `Invalid ${base}`;
  const field = (extra: unknown[] = []) =>
    [base, ...first.instancePath.split('/').filter(Boolean), ...extra].join('.');
  const branches = unionBranches(errors, first.instancePath);
  // A choice of values (a union of literals) lists them, not "must be equal to constant".
  if (branches?.every((e) => e.keyword === 'const')) {
    const allowed = branches.map((e) =>
      String((e.params as { allowedValue?: unknown }).allowedValue),
    );
    return `${field()} must be one of: ${allowed.join(', ')}`;
  }
  // Of a union's branches, the one whose type matched says what is wrong (a list too short, say).
  const error = branches?.find((e) => e.keyword !== 'type') ?? first;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const missing = (params.requiredProperties ?? [params.missingProperty]) as unknown[];
    return `${field([missing[0]])} is required`;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (params.additionalProperties ?? [params.additionalProperty]) as unknown[];
    return `${field([extra[0]])} is not allowed`;
  }
  // A pattern says what it requires in words (`Matching`), not as a regular expression.
  const meaning = error.keyword === 'pattern' ? patternMeaning(String(params.pattern)) : undefined;
  return `${field()} ${meaning ?? error.message}`;
}

/**
 * The errors of each branch of a union (`anyOf`) that failed at `path`, when the first error is
 * one of them; null otherwise.
 */
function unionBranches(
  errors: FastifySchemaValidationError[],
  path: string,
): FastifySchemaValidationError[] | null {
  const union = errors.findIndex((e) => e.keyword === 'anyOf' && e.instancePath === path);
  if (union < 0) return null;
  const branches = errors.slice(0, union).filter((e) => e.instancePath === path);
  return branches.length > 0 ? branches : null;
}
