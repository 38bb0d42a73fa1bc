// Turns schema validation errors into one message that names the field, e.g.
// "body.email is required" or "querystring.userIds.0 must match pattern ...".
import type { FastifySchemaValidationError } from 'fastify';

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
  return `${field()} ${error.message}`;
}
