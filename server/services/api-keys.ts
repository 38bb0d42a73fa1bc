// API keys of service accounts: `lcsk_{id}_{secret}`. Only the secret's SHA-256 is stored; a key is
// checked by id, then by a constant-time comparison of the hashes.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AuthUser } from '../context.ts';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../ids.ts';

const PREFIX = 'lcsk_';
const KEY = /^lcsk_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const isApiKey = (token: string) => token.startsWith(PREFIX);

/** A new key: the row's values and the full key, shown to the admin once. */
export function newApiKey(): { id: string; secretHash: string; key: string } {
  const id = newId();
  const secret = randomBytes(32).toString('base64url');
  return { id, secretHash: hash(secret), key: `${PREFIX}${id}_${secret}` };
}

/** The service account a key acts as; 401 for a malformed, unknown or revoked key. */
export async function verifyApiKey(db: Db, token: string): Promise<AuthUser> {
  const match = KEY.exec(token);
  const [row] = match
    ? await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.id, match[1] ?? ''))
    : [];
  const given = Buffer.from(hash(match?.[2] ?? ''), 'hex');
  const ok = row && !row.revokedAt && timingSafeEqual(given, Buffer.from(row.secretHash, 'hex'));
  if (!row || !ok) throw new HttpError(401, 'Invalid or revoked API key');
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  return { id: row.id, name: row.name, email: `service-account:${row.name}`, roles: ['service'] };
}
