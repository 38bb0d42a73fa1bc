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
    'False while the password is one someone else chose (a manager, or the deployment for the first admin): until the user sets its own with POST /api/change-password, every other route but GET /api/me and POST /api/logout answers it 403, and that manager signs none of its inspections.',
});

/** spec §7: the token is stored as the access token and decoded for id, name, email, roles. */
export const LoginResponse = Type.Object({ token: Type.String(), ownPassword: OwnPassword });
export type LoginResponse = Static<typeof LoginResponse>;

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
});
export type Me = Static<typeof Me>;
