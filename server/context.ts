// The services every route uses, created once per app (see app.ts) and reached as `app.ctx`.
import type { AnalysisService } from './analysis/runner.ts';
import type { RefusalLog } from './audit/refusals.ts';
import type { CredentialGuard } from './auth/credentials.ts';
import type { PasswordHasher } from './auth/password.ts';
import type { TokenService } from './auth/token.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Role } from './schemas/common.ts';
import type { ReadCache } from './services/read-cache.ts';
import type { Storage } from './storage/storage.ts';

export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  storage: Storage;
  passwords: PasswordHasher;
  tokens: TokenService;
  /** Password checks with per-account lockout and per-address limits (server/auth/credentials.ts). */
  credentials: CredentialGuard;
  /** Refused requests for the audit log, repeats merged into counted entries. */
  refusals: RefusalLog;
  /** Where a verified upload goes to be analysed: durable jobs (server/analysis/runner.ts). */
  analysis: AnalysisService;
  /** Read caches; only with PGlite, whose lock makes this process the sole writer. */
  caches: ReadCaches | null;
}

export interface ReadCaches {
  /** GET /api/videos answers, serialized (UTF-8 JSON), per (scope, filters). */
  videoLists: ReadCache<Buffer>;
  /** The auth hook's user row (roles, token version, status, session revoked) by id and session. */
  users: ReadCache<SessionRow | null>;
}

/** What the auth hook reads of a token's user, in one query. */
export interface SessionRow extends Omit<AuthUser, 'ownPassword'> {
  passwordSetBy: string | null;
  tokenVersion: number;
  status: string;
  revoked: boolean;
}

export interface AuthUser {
  id: string;
  name: string;
  email: string;
  roles: Role[];
  /**
   * False while the password is one someone else chose (users.password_set_by): its user may only
   * set its own (auth-hook.ts) and signs nothing until then (docs/signatures.md). Absent for
   * service accounts.
   */
  ownPassword?: boolean;
}

/** Who may call a route: anyone, any logged-in user, or users holding one of the roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Also accept the media cookie (for <video>/<img>, which cannot send a bearer header). */
    media?: boolean;
    /**
     * Also serves a user whose password someone else chose, which every other authenticated
     * route refuses (403) until the user sets its own: what it needs to set it (auth-hook.ts).
     */
    beforeOwnPassword?: boolean;
  }
}
