import { type Static, Type } from 'typebox';
import { Id, Role } from './common.ts';
import { MIN_PASSWORD_LENGTH } from './password-rule.ts';

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

/** users.password_set_by is null (docs/signatures.md, rule 3). */
const OwnPassword = Type.Boolean({
  description:
    'False while the password is one someone else chose (a manager, or the deployment for the first admin), or one that was older than PASSWORD_MAX_AGE_DAYS at a sign-in: until the user sets its own with POST /api/change-password, every other route but GET /api/me, POST /api/session/renew and POST /api/logout answers it 403, and that manager signs none of its inspections.',
});

/** PASSWORD_MAX_AGE_DAYS when that is why ownPassword is false (docs/permissions.md). */
const PasswordExpiredAfterDays = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description:
    'The maximum age of a password, in days, when the password is older and so must be replaced (ownPassword is false then); null otherwise.',
});

/** SESSION_IDLE_MINUTES, for the app's sign-out after inactivity (docs/web-app.md). */
const IdleMinutes = Type.Integer({
  minimum: 1,
  description:
    'Minutes without activity that end the session: a bearer token lives this long unless renewed with POST /api/session/renew, and the app signs out at this limit.',
});

/** spec §7: the token is stored as the access token and decoded for id, name, email, roles. */
export const LoginResponse = Type.Object({
  token: Type.String(),
  ownPassword: OwnPassword,
  passwordExpiredAfterDays: PasswordExpiredAfterDays,
  idleMinutes: IdleMinutes,
});
export type LoginResponse = Static<typeof LoginResponse>;

/** POST /api/session/renew: a fresh bearer token of the same session. */
export const RenewResponse = Type.Object({ token: Type.String(), idleMinutes: IdleMinutes });
export type RenewResponse = Static<typeof RenewResponse>;

/** Why a session ends, for the audit trail: the user's choice, or the app's idle sign-out. */
export const LogoutReason = Type.Union([Type.Literal('user'), Type.Literal('idle')]);
export type LogoutReason = Static<typeof LogoutReason>;

/** POST /api/logout takes no body, or this one. */
export const LogoutBody = Type.Object({ reason: Type.Optional(LogoutReason) });
export type LogoutBody = Static<typeof LogoutBody>;

/** Claims of the login token (JWT, HS256). `exp`/`iat` are seconds since the epoch. */
export const TokenClaims = Type.Object({
  id: Id,
  name: Type.String(),
  email: Type.String(),
  roles: Type.Array(Role),
  exp: Type.Number(),
  iat: Type.Number(),
});
export type TokenClaims = Static<typeof TokenClaims>;

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 1024 }),
  newPassword: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 }),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** GET /api/me */
export const Me = Type.Object({
  id: Id,
  name: Type.String(),
  email: Type.String(),
  roles: Type.Array(Role),
  ownPassword: OwnPassword,
  passwordExpiredAfterDays: PasswordExpiredAfterDays,
  idleMinutes: IdleMinutes,
});
export type Me = Static<typeof Me>;
