// Shapes shared by several resources. Schema files import only `typebox` so the web app can
// import their types (type-only) without pulling server code into the browser build.
import { type Static, type TStringOptions, Type } from 'typebox';
import { INVISIBLE_CLASS } from './blank.ts';
import { ONE_LINE_MEANING, ONE_LINE_PATTERN, TRIMMED_ONE_LINE_PATTERN } from './text-rules.ts';

const patternMeanings = new Map<string, string>();

/**
 * A string that must match `pattern`. The 400 refusing one says `meaning` ('body.email must be an
 * email address'), not the regular expression (server/http/validation-message.ts).
 */
export function Matching(pattern: string, meaning: string, options: TStringOptions = {}) {
  patternMeanings.set(pattern, meaning);
  return Type.String({ ...options, pattern });
}

/** What a `Matching` pattern requires, in words; undefined for any other pattern. */
export const patternMeaning = (pattern: string): string | undefined => patternMeanings.get(pattern);

const VISIBLE_PATTERN = `[^${INVISIBLE_CLASS}]`;
patternMeanings.set(VISIBLE_PATTERN, 'must not be blank');
patternMeanings.set(ONE_LINE_PATTERN, ONE_LINE_MEANING);
patternMeanings.set(TRIMMED_ONE_LINE_PATTERN, ONE_LINE_MEANING);

/** Text a person types: up to `maxLength` characters, at least one of them visible. */
export const NonBlank = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: VISIBLE_PATTERN });

/**
 * A name, a product or a batch: `NonBlank` (said first), on one line with no hidden characters
 * (text-rules.ts). Two patterns, so a blank one and a hidden character are each named.
 */
export const OneLine = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    allOf: [{ pattern: VISIBLE_PATTERN }, { pattern: ONE_LINE_PATTERN }],
  });

/** A code that may be empty and is trimmed where it is compared (a tag's QR code). */
export const OneLineCode = (maxLength: number) =>
  Type.String({ maxLength, pattern: TRIMMED_ONE_LINE_PATTERN });

/** Server-generated record id (24 lower-case hex characters). */
export const Id = Matching('^[0-9a-f]{24}$', 'must be a record id (24 lower-case hex digits)', {
  description: 'record id',
});
export type Id = Static<typeof Id>;

/** A keyframe image's name (spec §7): its video time in seconds, then `.png`. */
export const KeyframeImageName = Matching(
  '^[0-9]{1,20}(\\.[0-9]{1,9})?\\.png$',
  'must be a keyframe image name ({seconds}.png)',
);

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

/** Every error answer: `{ message }`; a 400 names the offending field. */
export const ErrorResponse = Type.Object({ message: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;

export const Role = Type.Union([
  Type.Literal('admin'),
  Type.Literal('factory_manager'),
  Type.Literal('lc_manager'),
  Type.Literal('audit'),
  Type.Literal('operator'),
  // Service accounts only (API keys of an external SLAM or detector; docs/analysis.md).
  Type.Literal('service'),
]);
export type Role = Static<typeof Role>;

/** Plain acknowledgement for deletes and status changes without a richer answer. */
export const MessageResponse = Type.Object({ message: Type.String() });
export type MessageResponse = Static<typeof MessageResponse>;
