// Shapes shared by several resources. Schema files import only `typebox` so the web app can
// import their types (type-only) without pulling server code into the browser build.
import { type Static, Type } from 'typebox';

/** Server-generated record id (24 lower-case hex characters). */
export const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: 'record id' });
export type Id = Static<typeof Id>;

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
