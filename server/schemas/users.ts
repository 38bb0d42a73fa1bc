import { type Static, Type } from 'typebox';
import { ChangeReason, DeleteReasonBody } from './change-reason.ts';
import { Id, Matching, OneLine, Role } from './common.ts';
import { UserNamedIn } from './named-records.ts';
import { MIN_PASSWORD_LENGTH } from './password-rule.ts';
import { HIDDEN_IN_ONE_LINE } from './text-rules.ts';
import { ExpectedVersion, Version } from './version.ts';

/** 'deactivated': kept for the records it is named in; cannot sign in. */
export const UserStatus = Type.Union([Type.Literal('active'), Type.Literal('deactivated')]);
export type UserStatus = Static<typeof UserStatus>;

/**
 * A user as listed. `role` is always the list of roles (spec §3 allows a string or a list).
 * `lockedUntil`: set while too many failed passwords keep the account locked.
 */
export const User = Type.Object({
  _id: Id,
  id: Id,
  name: Type.String(),
  email: Type.String(),
  role: Type.Array(Role),
  lineClearanceIds: Type.Array(Id),
  assignedOperators: Type.Array(Id),
  status: UserStatus,
  lockedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Not changed by a password change or reset, which the edit form does not show. */
  version: Version,
  /** GET /api/users to admins, factory managers and LC managers only. */
  namedIn: Type.Optional(UserNamedIn),
});
export type User = Static<typeof User>;

/** A user's name: also the first admin's ADMIN_NAME (server/config.ts). */
export const MAX_USER_NAME_LENGTH = 200;
const Name = OneLine(MAX_USER_NAME_LENGTH);
export const MAX_EMAIL_LENGTH = 320;
// No spaces nor hidden characters (text-rules.ts): an address that shows as another is refused.
const Email = Matching(
  `^[^\\s@${HIDDEN_IN_ONE_LINE}]+@[^\\s@${HIDDEN_IN_ONE_LINE}]+$`,
  'must be an email address (name@domain)',
  {
    minLength: 3,
    maxLength: MAX_EMAIL_LENGTH,
  },
);
/** One role or a non-empty list of roles; the default is operator (spec §6). */
const RoleInput = Type.Union([Role, Type.Array(Role, { minItems: 1, maxItems: 5 })]);

export const UserCreate = Type.Object({
  name: Name,
  email: Email,
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 }),
  role: Type.Optional(RoleInput),
  lineClearanceIds: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  assignedOperators: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
});
export type UserCreate = Static<typeof UserCreate>;

/** PUT /api/users/{id}: the whole user and why it is changed; `_id`, `id` and unknown fields are
 * ignored. A password or a new email (admins and factory managers only) resets it and revokes the
 * user's tokens, as does deactivating the account. */
export const UserUpdate = Type.Object({
  name: Name,
  email: Email,
  role: Type.Optional(RoleInput),
  password: Type.Optional(Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 })),
  lineClearanceIds: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  assignedOperators: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  status: Type.Optional(UserStatus),
  version: ExpectedVersion,
  reason: ChangeReason('user', 'changed'),
});
export type UserUpdate = Static<typeof UserUpdate>;

/** DELETE /api/users/{id}: why (optional). */
export const UserDelete = DeleteReasonBody('user');
