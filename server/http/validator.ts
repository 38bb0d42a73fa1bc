// Request validation. TypeBox's compiled check decides, as before; when it refuses, Ajv names
// the first problem. TypeBox's own explanation walks every element of every array and keeps a
// set of their indices: one operator's 22 MB capture body held the server's only thread 21 s and
// took gigabytes. Ajv stops at its first error, so a refusal costs no more than the check. A
// body that passes keeps only the fields its schema declares (undeclared-fields.ts).
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Format } from 'typebox/format';
import { Locale } from 'typebox/system';
import { Value } from 'typebox/value';
import { dropUndeclaredFields } from './undeclared-fields.ts';

let explainers: Ajv | undefined;

/** Built at the first refusal, after start-up has narrowed the formats (date-time-format.ts). */
function explainer(): Ajv {
  if (!explainers) {
    explainers = new Ajv({ strict: false, allErrors: false });
    // TypeBox's own format checks, so both validators agree on what a date-time is.
    for (const [name] of Format.Entries()) {
      explainers.addFormat(name, (value: string) => Format.Test(name, value));
    }
  }
  return explainers;
}

/** An Ajv error in TypeBox's shape and words, which validation-message.ts and clients read. */
function inTypeBoxWords(error: ErrorObject): FastifySchemaValidationError {
  const params =
    error.keyword === 'required'
      ? { requiredProperties: [(error.params as { missingProperty: string }).missingProperty] }
      : error.params;
  const shaped = { ...error, params };
  try {
    return { ...shaped, message: Locale.en_US(shaped as never) };
  } catch {
    return shaped as FastifySchemaValidationError;
  }
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  let explain: ValidateFunction | null | undefined;
  return (value) => {
    // Parameters and queries arrive as text: converted to the schema's types first.
    const converted = httpPart === 'body' ? value : Value.Convert(schema, value);
    if (check.Check(converted)) {
      if (httpPart === 'body') dropUndeclaredFields(schema, converted);
      return { value: converted };
    }
    if (explain === undefined) {
      try {
        explain = explainer().compile(schema as FastifySchema);
      } catch {
        explain = null;
      }
    }
    if (explain && !explain(converted) && explain.errors?.length) {
      return { error: explain.errors.map(inTypeBoxWords) };
    }
    // Ajv could not read the schema or took the value: TypeBox explains, as it always did.
    return { error: check.Errors(converted) as unknown as FastifySchemaValidationError[] };
  };
};
