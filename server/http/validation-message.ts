// Turns schema validation errors into one message that names the field, e.g.
// "body.email is required" or "query.userIds.0 must be a record id (24 lower-case hex digits)".
import type { FastifySchemaValidationError } from 'fastify';
import { patternMeaning } from '../schemas/common.ts';

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query' };

export function validationMessage(errors: FastifySchemaValidationError[], context: string): string {
  const base = CONTEXT_NAMES[context] ?? context;
  // TypeBox reports `additionalProperties: false` twice; the keyword error is the readable one.
  const error = errors.find((e) => e.keyword !== 'boolean') ?? errors[0];
  if (!error) return `Invalid ${base}`;
  const segments = error.instancePath.split('/').filter(Boolean);
  const params = error.params as Record<string, unknown>;
  const field = (extra: unknown[] = []) => [base, ...segments, ...extra].join('.');
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
