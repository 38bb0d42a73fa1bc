// Refused requests (403, and 409 for a signed record's evidence) in the append-only audit log without letting one client fill it: the
// entry names the route template and its capped parameters (never the query or the raw URL),
// the first refusal of a user on a route is written at once, and the repeats within a window are
// counted in memory and appended as one entry with the count when the window ends (or at
// shutdown). No row is ever updated.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { audit } from './audit.ts';
import { capText } from './limits.ts';

/**
 * What a refusal guarded: a role or ownership rule (403), or a record's evidence (409: a signed
 * inspection's, or the device that recorded a video), which no role may change, so an auditor
 * does not read it as a missing permission.
 */
export type RefusalAction = 'authorization.denied' | 'evidence.protected';

/**
 * The object a refusal protected, when it is a record's (a signed inspection's video): the entry
 * is filed under it, so the record's history shows the attempt. Else it is filed under the route.
 */
export interface RefusalSubject {
  entity: string;
  entityId: string;
}

export interface RefusalLog {
  /** Audits one refusal of the request's user (written now, or counted into the open window). */
  record(
    request: FastifyRequest,
    reason: string,
    action?: RefusalAction,
    subject?: RefusalSubject,
  ): Promise<void>;
  /** Appends the counts of every open window and closes them. */
  flush(): Promise<void>;
  /** Flushes and stops the timer (app shutdown). */
  close(): Promise<void>;
}

interface Window {
  startedAt: Date;
  lastAt: Date;
  /** Refusals after the first one, not yet written. */
  repeats: number;
  request: Pick<FastifyRequest, 'user' | 'ip'>;
  route: string;
  reason: string;
  action: RefusalAction;
  subject: RefusalSubject | null;
}

/** Where an entry is filed: the protected object, with the route in its value; else the route. */
const filedUnder = (route: string, subject: RefusalSubject | null) =>
  subject
    ? { entity: subject.entity, entityId: subject.entityId, route: { route } }
    : { entity: 'route', entityId: route, route: {} };

const MAX_PARAMS = 5;

/** `GET /api/users/:id`: the route template, never the query string. */
export function refusedRoute(request: FastifyRequest): string {
  const template = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  return capText(`${request.method} ${template}`, 200);
}

function refusedParams(request: FastifyRequest): Record<string, string> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(params)
      .slice(0, MAX_PARAMS)
      .map(([name, value]) => [capText(name, 40), capText(String(value), 100)]),
  );
}

export function createRefusalLog(
  db: Db,
  options: { windowMs?: number; maxOpenWindows?: number } = {},
): RefusalLog {
  const windowMs = options.windowMs ?? 60_000;
  const maxOpenWindows = options.maxOpenWindows ?? 10_000;
  const open = new Map<string, Window>();

  const writeRepeats = async (window: Window) => {
    if (window.repeats === 0) return;
    const { route, ...filed } = filedUnder(window.route, window.subject);
    await audit(db, window.request, {
      action: window.action,
      ...filed,
      newValue: {
        reason: window.reason,
        ...route,
        repeated: window.repeats,
        from: window.startedAt.toISOString(),
        to: window.lastAt.toISOString(),
      },
    });
  };
  const closeWindows = async (predicate: (window: Window) => boolean) => {
    const closing = [...open].filter(([, window]) => predicate(window));
    for (const [key] of closing) open.delete(key);
    for (const [, window] of closing) await writeRepeats(window);
  };

  const timer = setInterval(
    () => {
      const cutoff = Date.now() - windowMs;
      closeWindows((window) => window.startedAt.getTime() <= cutoff).catch(() => {
        // The database is gone (shutdown): nothing left to write to.
      });
    },
    Math.max(10, Math.min(windowMs / 2, 10_000)),
  );
  timer.unref();

  return {
    async record(request, reason, action = 'authorization.denied', subject) {
      const route = refusedRoute(request);
      const key = `${request.user?.id ?? '-'}\n${route}\n${action}\n${reason}\n${subject?.entityId ?? ''}`;
      const now = new Date();
      const window = open.get(key);
      if (window && now.getTime() - window.startedAt.getTime() < windowMs) {
        window.repeats++;
        window.lastAt = now;
        return;
      }
      if (window) {
        open.delete(key);
        await writeRepeats(window);
      }
      if (open.size >= maxOpenWindows) {
        // Map keeps insertion order: the oldest window goes out first.
        const [oldestKey, oldest] = open.entries().next().value as [string, Window];
        open.delete(oldestKey);
        await writeRepeats(oldest);
      }
      open.set(key, {
        startedAt: now,
        lastAt: now,
        repeats: 0,
        request: { user: request.user, ip: request.ip },
        route,
        reason,
        action,
        subject: subject ?? null,
      });
      const { route: named, ...filed } = filedUnder(route, subject ?? null);
      await audit(db, request, {
        action,
        ...filed,
        newValue: { reason, ...named, params: refusedParams(request) },
      });
    },
    flush: () => closeWindows(() => true),
    async close() {
      clearInterval(timer);
      await closeWindows(() => true);
    },
  };
}
