// Known browsers (OWASP's "device cookies"): a successful sign-in leaves an entry for the account
// in the browser's `lc_known` cookie, signed with the server's key. A password check that carries
// a valid entry for its account counts its failures against that entry, not the account
// (credentials.ts), so a stranger who locks an account by its email does not lock its owner out of
// the browsers the owner signs in from, nor out of signing records.
//
// One cookie holds the entries of the last MAX_ENTRIES accounts signed in from the browser (a shared
// terminal): the server sees them all at once, so it keeps the newest and drops the rest itself. One
// cookie per account would leave the oldest to the browser's own cap on cookies, which may evict the
// media cookie instead.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieAttributes, cookieValue } from '../http/auth-hook.ts';

export const KNOWN_BROWSER_COOKIE = 'lc_known';
/** Accounts a browser is known for; a sign-in to another forgets the one signed in longest ago. */
export const MAX_ENTRIES = 10;
const MAC_BYTES = 16;
const DAY_SECONDS = 24 * 3600;

/** One account's entry in a browser's cookie. */
export interface BrowserEntry {
  userId: string;
  /** Random, new at each sign-in: names the entry's failure counter (known_browser_failures). */
  entryId: string;
  /** Seconds since the epoch. */
  issuedAt: number;
}

export interface KnownBrowsers {
  /** The request's valid entry for this account (signed by this server, not expired), or null. */
  entryFor(request: FastifyRequest, userId: string, time: Date): BrowserEntry | null;
  /** After a sign-in: the cookie again, with a new entry for this account first. */
  remember(request: FastifyRequest, reply: FastifyReply, userId: string, time: Date): void;
}

/** `days` 0: no entry is ever set or accepted. */
export function createKnownBrowsers(secret: Uint8Array, days: number): KnownBrowsers {
  // A key of its own, so a cookie's MAC can never stand for a token's signature, or the reverse.
  const key = createHmac('sha256', secret).update('lc known-browser cookie').digest();
  const mac = (payload: string) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
  const payloadOf = (entry: BrowserEntry) => `${entry.userId}.${entry.entryId}.${entry.issuedAt}`;
  const encode = (entry: BrowserEntry) =>
    `${payloadOf(entry)}.${mac(payloadOf(entry)).toString('base64url')}`;

  /** One entry as sent; null when malformed, wrongly signed or expired. */
  function decode(text: string, time: Date): BrowserEntry | null {
    const match = /^([\w-]+)\.([\w-]+)\.(\d{1,12})\.([\w-]+)$/.exec(text);
    if (!match) return null;
    const [, userId = '', entryId = '', issued = '', sent = ''] = match;
    const entry = { userId, entryId, issuedAt: Number(issued) };
    const given = Buffer.from(sent, 'base64url');
    const expected = mac(payloadOf(entry));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    // The setting as it is now: lowering it shortens entries set before.
    return (entry.issuedAt + days * DAY_SECONDS) * 1000 > time.getTime() ? entry : null;
  }

  /** The cookie's valid entries, newest first (no more than the server ever writes). */
  const entries = (request: FastifyRequest, time: Date) =>
    (cookieValue(request, KNOWN_BROWSER_COOKIE) ?? '')
      .split('~')
      .slice(0, MAX_ENTRIES)
      .map((text) => decode(text, time))
      .filter((entry) => entry !== null);

  return {
    entryFor(request, userId, time) {
      if (days === 0) return null;
      return entries(request, time).find((entry) => entry.userId === userId) ?? null;
    },
    remember(request, reply, userId, time) {
      if (days === 0) return;
      const entry = {
        userId,
        entryId: randomBytes(12).toString('base64url'),
        issuedAt: Math.floor(time.getTime() / 1000),
      };
      const others = entries(request, time).filter((known) => known.userId !== userId);
      const value = [entry, ...others.slice(0, MAX_ENTRIES - 1)].map(encode).join('~');
      reply.header(
        'set-cookie',
        `${KNOWN_BROWSER_COOKIE}=${value}; ${cookieAttributes(request, days * DAY_SECONDS)}`,
      );
    },
  };
}
