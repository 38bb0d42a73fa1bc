import { type Static, Type } from 'typebox';

/** One append-only audit record: who (actor), what (action on entity), when (UTC), old/new. */
export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actorId: Type.Union([Type.String(), Type.Null()]),
  actorEmail: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  entity: Type.String(),
  entityId: Type.Union([Type.String(), Type.Null()]),
  oldValue: Type.Unknown(),
  newValue: Type.Unknown(),
  ip: Type.Union([Type.String(), Type.Null()]),
});
export type AuditEntry = Static<typeof AuditEntry>;

/** GET /api/audit-log: newest first, paged by `before` (an entry id) and `limit`. */
export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  before: Type.Optional(Type.Integer({ minimum: 1 })),
  entity: Type.Optional(Type.String({ maxLength: 50 })),
  entityId: Type.Optional(Type.String({ maxLength: 100 })),
});
export type AuditQuery = Static<typeof AuditQuery>;
