// A record's disposition and signature are dated by the database's clock, as their audit trail
// entries are: a server process whose clock runs ahead cannot date them apart from the trail.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { auditLog, inspections, lineClearances, predictions } from '../db/schema.ts';
import { DEMO_PASSWORD } from '../demo/load-demo.ts';
import { build, type TestApp } from '../test/build.ts';
import { loadFixture } from '../test/demo-fixture.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
}, 180_000);
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** How far this process's clock runs ahead in the test. */
const AHEAD_MS = 10 * 60_000;

async function lastEntry(action: string, inspectionId: string) {
  const [row] = await t.services.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, inspectionId)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

it('dates a disposition and a signature by the database, as their trail entries', async () => {
  const { db } = t.services.ctx;
  const [row] = await db
    .select({ id: inspections.id, videoId: inspections.videoId })
    .from(inspections)
    .innerJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
    .where(eq(lineClearances.name, 'Line A'));
  const [prediction] = await db
    .select({ id: predictions.id })
    .from(predictions)
    .where(eq(predictions.videoId, row?.videoId ?? ''))
    .limit(1);
  const id = row?.id ?? '';

  // Only Date is faked, and it keeps running: the server's timers and the database are real.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + AHEAD_MS });
  const decided = await t.app.inject({
    method: 'PUT',
    url: `/api/inspections/${id}/dispositions/${prediction?.id}`,
    headers: f.auth.lcmanager,
    payload: { disposition: 'confirmed' },
  });
  expect(decided.statusCode).toBe(200);
  const signed = await t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${id}/reject`,
    headers: f.auth.lcmanager,
    payload: {
      userId: 'lcmanager@example.com',
      password: DEMO_PASSWORD,
      notes: 'The carton found beside the sealing station was still on the line',
    },
  });
  expect(signed.statusCode).toBe(200);
  vi.useRealTimers();
  const now = Date.now();

  const disposition = decided.json() as { at: string };
  const signedAt = (signed.json() as { signature: { signedAt: string } }).signature.signedAt;
  for (const at of [disposition.at, signedAt]) {
    expect(Math.abs(Date.parse(at) - now)).toBeLessThan(60_000);
  }
  // Each is its trail entry's time: the same transaction's now(), to the millisecond.
  const entries = {
    disposition: await lastEntry('disposition', id),
    reject: await lastEntry('reject', id),
  };
  expect(
    Math.abs((entries.disposition?.at.getTime() ?? 0) - Date.parse(disposition.at)),
  ).toBeLessThan(1);
  expect(entries.reject?.at.getTime()).toBe(Date.parse(signedAt));
});
