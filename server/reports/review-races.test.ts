// A pending record reviewed by several people at once (docs/signatures.md, "What the signer
// reviewed"), on the real demo dataset: a signature or a disposition over a record that changed
// since the caller's page showed it is refused in words naming the change, and whoever loses a
// race to sign or to decide is in the record's trail, as a later try is.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, inspections, predictions, users } from '../db/schema.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import type { Disposition, InspectionReport, ReportDetection } from '../schemas/reports.ts';
import { build, type TestApp } from '../test/build.ts';
import { dataset, files } from '../test/demo-dataset.ts';
import { alreadySigned } from './report.ts';

let t: TestApp;
const auth: Record<string, { authorization: string }> = {};
const ids: Record<string, string> = {};
const inspectionIds: Record<string, string> = {};

beforeAll(async () => {
  t = await build();
  await loadDemo(t.services.ctx, dataset, files);
  for (const user of dataset.users) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: DEMO_PASSWORD },
    });
    auth[user.key] = { authorization: `Bearer ${res.json().token}` };
    const [row] = await t.services.ctx.db.select().from(users).where(eq(users.email, user.email));
    ids[user.key] = row?.id ?? '';
  }
  const rows = await t.services.ctx.db.select().from(inspections);
  for (const inspection of dataset.inspections) {
    const row = rows.find((r) => r.startTime.toISOString() === inspection.startTime);
    inspectionIds[inspection.key] = row?.id ?? '';
  }
});
afterAll(() => t.close());

const REASON = 'Flags checked on the line: the carton and the label were removed before the batch';
const report = async (who: string, key: string) =>
  (
    await t.app.inject({ url: `/api/reports/${inspectionIds[key]}`, headers: auth[who] })
  ).json() as InspectionReport;
const sign = (who: string, key: string, verb: 'approve' | 'reject', payload: object) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${inspectionIds[key]}/${verb}`,
    headers: auth[who],
    payload: { userId: `${who}@example.com`, password: DEMO_PASSWORD, notes: REASON, ...payload },
  });
const dispose = (who: string, key: string, predictionId: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/inspections/${inspectionIds[key]}/dispositions/${predictionId}`,
    headers: auth[who],
    payload,
  });
const refusalsOf = async (key: string) =>
  (await t.services.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'evidence.protected')))
    .filter((row) => row.entityId === inspectionIds[key])
    .map((row) => [row.actorId, (row.newValue as { reason?: string } | null)?.reason]);

/** 'detection at 8.00 s (carton 91%)', as a refusal names it. */
const named = (d: ReportDetection) =>
  `detection at ${d.time.toFixed(2)} s (${d.labels[0]} ${((d.confs[0] ?? 0) * 100).toFixed(0)}%)`;
/** 'on 2026-11-26 at 02:41 UTC' */
const on = (at: string) => `on ${at.slice(0, 10)} at ${at.slice(11, 16)} UTC`;
const seen = (d: Disposition) => ({ disposition: d.disposition, at: d.at });

/**
 * `first` and `second` in flight together, the first held at its transaction until the second has
 * answered: it passed its checks on the record before the second changed it, and reads the record
 * again under the lock after (a race lost, every time).
 */
async function raced<T>(first: () => Promise<T>, second: () => Promise<T>): Promise<[T, T]> {
  const { db } = t.services.ctx;
  const transaction = db.transaction;
  let secondAnswer: Promise<T> | undefined;
  db.transaction = (async (...args: Parameters<typeof transaction>) => {
    db.transaction = transaction;
    secondAnswer = second();
    await secondAnswer;
    return transaction.apply(db, args);
  }) as typeof transaction;
  try {
    const firstAnswer = await first();
    if (!secondAnswer) throw new Error('the first request opened no transaction');
    return [firstAnswer, await secondAnswer];
  } finally {
    db.transaction = transaction;
  }
}

describe('a disposition over another decision than the page showed', () => {
  it('is refused naming who decided and when; one that names none is stored as before', async () => {
    const key = 'insp-lc2-2';
    const detection = (await report('lcmanager2', key)).detections[0];
    if (!detection) throw new Error('the demo inspection has detections');
    const id = detection.predictionId;
    const decisions = async () =>
      (
        await t.services.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'disposition'))
      ).filter((row) => row.entityId === inspectionIds[key]).length;
    const decidedBefore = await decisions();
    const shownFirst = detection.disposition && seen(detection.disposition);
    // Daniel decides on it as his page shows it.
    const dismissed = await dispose('lcmanager2', key, id, {
      disposition: 'dismissed',
      reason: 'Shadow of the capper guard',
      seen: shownFirst,
    });
    expect(dismissed.statusCode).toBe(200);
    // Adriana's page, loaded before, shows it as Daniel's did.
    const late = await dispose('admin', key, id, { disposition: 'confirmed', seen: shownFirst });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      `The ${named(detection)} was dismissed as a false positive by Daniel Okafor ${on(dismissed.json().at)} since you opened the report. Review it again, then decide.`,
    );
    // Reloaded, her page shows the dismissal: her confirmation replaces it.
    const confirmed = await dispose('admin', key, id, {
      disposition: 'confirmed',
      seen: seen(dismissed.json()),
    });
    expect(confirmed.statusCode).toBe(200);
    // Daniel's page still shows his own dismissal.
    const again = await dispose('lcmanager2', key, id, {
      disposition: 'dismissed',
      reason: 'Shadow of the capper guard, again',
      seen: seen(dismissed.json()),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `The ${named(detection)} was confirmed as a finding by Adriana Novak ${on(confirmed.json().at)} since you opened the report. Review it again, then decide.`,
    );
    const shown = (await report('lcmanager2', key)).detections[0]?.disposition;
    expect(shown).toEqual(confirmed.json());
    // Only the two stored are in the trail: a refusal changed nothing.
    expect(await decisions()).toBe(decidedBefore + 2);

    const malformed = await dispose('admin', key, id, {
      disposition: 'confirmed',
      seen: { disposition: 'maybe', at: confirmed.json().at },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^body\.seen\.disposition /);
    // A script that names nothing decides as before.
    const blind = await dispose('admin', key, id, { disposition: 'confirmed' });
    expect(blind.statusCode).toBe(200);
  });
});

describe('a signature over a record that changed since its signer’s page showed it', () => {
  it('is refused naming the changed decision, who changed it and when', async () => {
    const key = 'insp-lc2-2';
    const before = await report('lcmanager2', key);
    const detection = before.detections[0];
    if (!detection?.disposition) throw new Error('the test above decided on the detection');
    // Daniel dismisses it again and his page shows that; then Adriana, on a page loaded before,
    // confirms it over his dismissal (a script's call, naming no decision).
    const dismissed = await dispose('lcmanager2', key, detection.predictionId, {
      disposition: 'dismissed',
      reason: 'A reflection on the guard',
      seen: seen(detection.disposition),
    });
    expect(dismissed.statusCode).toBe(200);
    const reviewed = await report('lcmanager2', key);
    const confirmed = await dispose('admin', key, detection.predictionId, {
      disposition: 'confirmed',
    });
    expect(confirmed.statusCode).toBe(200);
    for (const verb of ['approve', 'reject'] as const) {
      const res = await sign('lcmanager2', key, verb, { recordHash: reviewed.recordHash });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        `The record changed since you opened it: the ${named(detection)} was confirmed as a finding by Adriana Novak ${on(confirmed.json().at)} (your page showed it dismissed as a false positive). Review it again, then sign.`,
      );
    }
    const after = await report('lcmanager2', key);
    expect(after).toMatchObject({ status: 'pending', signature: null });
    const signed = await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'approve'));
    expect(signed.filter((row) => row.entityId === inspectionIds[key])).toEqual([]);
  });

  it('names the parts that may have changed when no decision explains it', async () => {
    const key = 'insp-lc2-2';
    const reviewed = await report('lcmanager2', key);
    const [prediction] = await t.services.ctx.db
      .select()
      .from(predictions)
      .where(eq(predictions.id, reviewed.detections[1]?.predictionId ?? ''));
    if (!prediction) throw new Error('the demo inspection has two detections');
    // The detections as a re-ingestion of the same analysis version would replace them.
    await t.services.ctx.db
      .update(predictions)
      .set({ confs: prediction.confs.map((conf) => conf / 2) })
      .where(eq(predictions.id, prediction.id));
    expect((await report('lcmanager2', key)).recordHash).not.toBe(reviewed.recordHash);
    const res = await sign('lcmanager2', key, 'reject', { recordHash: reviewed.recordHash });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'The record changed since you opened it: its video or analysis, its capture data, a decision on a detection, or the names or floor plan it is drawn on differ from what your page showed. Review it again, then sign.',
    );
    const malformed = await sign('lcmanager2', key, 'reject', { recordHash: 'abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(
      'body.recordHash must be a SHA-256 in hex (64 lower-case hex digits)',
    );
    expect((await report('lcmanager2', key)).status).toBe('pending');
  });
});

describe('the loser of a race', () => {
  it('to sign is refused naming the signature, and is in the record’s trail', async () => {
    const key = 'insp-lc2-3';
    const [first, second] = await Promise.all([
      sign('lcmanager2', key, 'reject', {}),
      sign('admin', key, 'reject', {}),
    ]);
    const answers = [first, second].map((res) => res.statusCode).sort();
    expect(answers).toEqual([200, 409]);
    const loser = first.statusCode === 409 ? first : second;
    const loserId = first.statusCode === 409 ? ids.lcmanager2 : ids.admin;
    expect(loser.json().message).toMatch(
      /^The inspection is already rejected: signed by .+ on \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(await refusalsOf(key)).toEqual([[loserId, loser.json().message]]);
  });

  it('is told the signature’s decision, also when it read the inspection before that committed', () => {
    // The record's parts are read one statement after another: a CI run refused the loser with
    // 'The inspection is already pending: signed by …'.
    const read = {
      inspection: { status: 'pending' },
      signature: {
        meaning: 'rejected',
        signerName: 'Adriana Novak',
        signedAt: '2026-11-28T10:13:07.000Z',
      },
    } as Parameters<typeof alreadySigned>[0];
    expect(alreadySigned(read)).toBe(
      'The inspection is already rejected: signed by Adriana Novak on 2026-11-28 10:13 UTC',
    );
  });

  it('to decide while a signature commits is refused, and is in the record’s trail', async () => {
    const key = 'insp-lc2-2';
    const current = await report('admin', key);
    const detection = current.detections[0];
    if (!detection) throw new Error('the demo inspection has detections');
    const [decided, signed] = await raced(
      () =>
        dispose('lcmanager2', key, detection.predictionId, {
          disposition: 'confirmed',
          seen: detection.disposition && seen(detection.disposition),
        }),
      // Signed over the report as it is now: its hash is the record's.
      () => sign('admin', key, 'approve', { recordHash: current.recordHash }),
    );
    expect(signed.statusCode).toBe(200);
    expect(decided.statusCode).toBe(409);
    expect(decided.json().message).toMatch(
      /^The inspection is already approved: signed by Adriana Novak on \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(await refusalsOf(key)).toEqual([[ids.lcmanager2, decided.json().message]]);
  });
});
