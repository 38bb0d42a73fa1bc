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
  /**
   * The reason the entry records, where one was given (a refusal, a dismissal, a signature's
   * notes; `auditReason`); derived from `newValue`, not a column of the chain.
   */
  reason: Type.Union([Type.String(), Type.Null()]),
  /** The hash chain (docs/audit-trail.md): the previous entry's hash and this entry's. */
  prevHash: Type.Union([Type.String(), Type.Null()]),
  hash: Type.Union([Type.String(), Type.Null()]),
});
export type AuditEntry = Static<typeof AuditEntry>;

const DateTime = Type.String({ format: 'date-time' });

/** GET /api/audit-log (and .csv): newest first, filtered, paged by `before` (an entry id). */
export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  // Beyond 2^53 a number is no longer an exact id (and the database refused 1e+23 with a 500).
  before: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  /** Part of the actor's email (case-insensitive) or its user id. */
  actor: Type.Optional(Type.String({ maxLength: 320 })),
  action: Type.Optional(Type.String({ maxLength: 100 })),
  entity: Type.Optional(Type.String({ maxLength: 50 })),
  entityId: Type.Optional(Type.String({ maxLength: 100 })),
  /**
   * An inspection's id: its record's whole history, wherever the trail files it (the inspection's
   * own entries, its video's, its uploads'); 404 when the caller may not see that inspection.
   */
  record: Type.Optional(Type.String({ maxLength: 100 })),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
});
export type AuditQuery = Static<typeof AuditQuery>;

/** GET /api/audit-log/facets: the actions and object types the trail holds, for its filters. */
export const AuditFacets = Type.Object({
  actions: Type.Array(Type.String()),
  entities: Type.Array(Type.String()),
});
export type AuditFacets = Static<typeof AuditFacets>;

const TrailBreak = Type.Object({
  id: Type.Integer(),
  problem: Type.Union([Type.Literal('hash'), Type.Literal('link')]),
});

/** GET /api/audit-log/verify: the hash chain checked from the first entry to the last. */
export const TrailVerification = Type.Object({
  ok: Type.Boolean(),
  /** Entries checked: the whole trail. */
  checked: Type.Integer(),
  headHash: Type.Union([Type.String(), Type.Null()]),
  firstBroken: Type.Union([TrailBreak, Type.Null()]),
  /** How many entries do not verify; past the first break each entry is checked on its own. */
  brokenCount: Type.Integer(),
  /** The first 100 of them, in id order. */
  broken: Type.Array(TrailBreak),
});
export type TrailVerification = Static<typeof TrailVerification>;
