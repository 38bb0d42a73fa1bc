import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLockouts, auditLog, inspections, lineClearances, videos } from '../db/schema.ts';
import { SET_OWN_PASSWORD_FIRST } from '../http/auth-hook.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, PASSWORD, type RoleUsers, type TestUser } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;
let lineOfLc: string;
let lineOfLc2: string;
const VIDEO_BYTES = Buffer.from('the recorded video');

/** A pending inspection; with a video whose file arrived (verified) unless `video` says otherwise. */
async function inspection(
  line: string,
  operatorId: string,
  video: 'verified' | 'awaiting file' | 'analysing' | 'analysis failed' | 'none' = 'verified',
) {
  const id = newId();
  const videoId = video === 'none' ? null : newId();
  if (videoId) {
    // A verified video's file is in storage with its SHA-256: signing hashes it again.
    const verified = video !== 'awaiting file';
    if (verified) await t.services.ctx.storage.put(`videos/${videoId}.webm`, VIDEO_BYTES);
    await t.services.ctx.db.insert(videos).values({
      id: videoId,
      filename: `${videoId}.webm`,
      storageKey: `videos/${videoId}.webm`,
      subfolder: videoId,
      timestamp: new Date('2026-01-02T08:00:00Z'),
      status:
        video === 'analysing' ? 'processing' : video === 'analysis failed' ? 'error' : 'completed',
      statusReason: video === 'analysis failed' ? 'not a readable video file' : null,
      lineClearanceId: line,
      userId: operatorId,
      sha256: verified ? createHash('sha256').update(VIDEO_BYTES).digest('hex') : null,
    });
  }
  await t.services.ctx.db.insert(inspections).values({
    id,
    lineClearanceId: line,
    operatorId,
    videoId,
    startTime: new Date('2026-01-02T08:00:00Z'),
    operatorNotes: 'all clear',
  });
  return id;
}

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  lineOfLc = newId();
  lineOfLc2 = newId();
  await t.services.ctx.db.insert(lineClearances).values([
    { id: lineOfLc, name: 'L1', managerId: u.lc.id },
    { id: lineOfLc2, name: 'L2', managerId: u.lc2.id },
  ]);
});
afterAll(() => t.close());

const APPROVAL_REASON = 'No floor plan for this line yet: walked and checked by hand';
const REJECTION_REASON = 'Loose labels under the sealer';
/** Signs as `signer`, with both components: its user ID (its email) and its password. */
const review = (signer: TestUser, id: string, verb: string, notes?: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/inspections/${id}/${verb}`,
    headers: signer.auth,
    payload: {
      userId: signer.email,
      password: PASSWORD,
      ...(notes === undefined ? {} : { notes }),
    },
  });

describe('inspections', () => {
  it('scopes the list: own for operators, own lines for LC managers, all for audit', async () => {
    const mine = await inspection(lineOfLc, u.operator.id);
    const other = await inspection(lineOfLc2, u.operator2.id);
    const ids = async (auth: { authorization: string }) =>
      (await t.app.inject({ url: '/api/inspections', headers: auth }))
        .json()
        .map((i: { _id: string }) => i._id);
    expect(await ids(u.operator.auth)).toEqual([mine]);
    expect(await ids(u.lc.auth)).toEqual([mine]);
    expect((await ids(u.audit.auth)).sort()).toEqual([mine, other].sort());
    const first = (
      await t.app.inject({ url: '/api/inspections', headers: u.operator.auth })
    ).json();
    expect(first[0]).toMatchObject({
      lineClearanceId: lineOfLc,
      operatorId: u.operator.id,
      startTime: '2026-01-02T08:00:00.000Z',
      status: 'pending',
      operatorNotes: 'all clear',
    });
  });

  it('approves a pending inspection once, with notes, and audits it', async () => {
    const id = await inspection(lineOfLc, u.operator.id);
    // The line has no floor plan, so its report flags the missing path: a reason is due.
    const res = await review(u.lc, id, 'approve', APPROVAL_REASON);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'approved',
      reviewerId: u.lc.id,
      reviewNotes: APPROVAL_REASON,
    });
    const again = await review(u.lc, id, 'reject', REJECTION_REASON);
    expect(again.statusCode).toBe(409);
    const log = await t.services.ctx.db.query.auditLog.findMany();
    expect(log.find((r) => r.action === 'approve' && r.entityId === id)?.oldValue).toMatchObject({
      status: 'pending',
    });
  });

  it('approves only a verified video whose analysis finished: else it can only be rejected', async () => {
    const blockers = {
      none: /^No video: /,
      'awaiting file': /^No verified video: the file has not arrived /,
      analysing: /^Analysis not finished: the path and the detections are not ready yet$/,
      'analysis failed':
        /^Analysis failed \(not a readable video file\): re-run it from \/analysis$/,
    } as const;
    for (const [video, blocker] of Object.entries(blockers)) {
      const id = await inspection(lineOfLc, u.operator.id, video as keyof typeof blockers);
      const refused = await review(u.lc, id, 'approve', APPROVAL_REASON);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/; it cannot be approved as clear, only rejected$/);
      const report = (await t.app.inject({ url: `/api/reports/${id}`, headers: u.lc.auth })).json();
      expect(report.approvalBlocker).toMatch(blocker);
      expect(refused.json().message).toBe(
        `${report.approvalBlocker}; it cannot be approved as clear, only rejected`,
      );
      expect(report.flags[0]).toMatchObject({ kind: 'no-video', severity: 'critical' });
      const rejected = await review(u.lc, id, 'reject', REJECTION_REASON);
      expect(rejected.json()).toMatchObject({ status: 'rejected' });
    }
  });

  it('lists what blocks an approval in the report’s words, null when nothing does', async () => {
    const kinds = ['verified', 'none', 'awaiting file', 'analysing', 'analysis failed'] as const;
    const ids = new Map<string, string>();
    for (const kind of kinds) ids.set(kind, await inspection(lineOfLc, u.operator.id, kind));
    const list = (await t.app.inject({ url: '/api/inspections', headers: u.lc.auth })).json() as {
      _id: string;
      approvalBlocker: string | null;
    }[];
    const blockerOf = (id: string | undefined) =>
      list.find((listed) => listed._id === id)?.approvalBlocker;
    expect(blockerOf(ids.get('verified'))).toBeNull();
    expect(blockerOf(ids.get('none'))).toMatch(/^No video: /);
    expect(blockerOf(ids.get('awaiting file'))).toMatch(/^No verified video: /);
    expect(blockerOf(ids.get('analysing'))).toMatch(/^Analysis not finished: /);
    expect(blockerOf(ids.get('analysis failed'))).toBe(
      'Analysis failed (not a readable video file): re-run it from /analysis',
    );
    for (const id of ids.values()) {
      const report = (await t.app.inject({ url: `/api/reports/${id}`, headers: u.lc.auth })).json();
      expect(blockerOf(id)).toBe(report.approvalBlocker);
    }
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const item =
      doc.paths['/api/inspections'].get.responses['200'].content['application/json'].schema.items;
    expect(item.required).toContain('approvalBlocker');
    expect(item.properties.approvalBlocker.description).toMatch(/only a rejection can be signed/);
  });

  it('refuses other managers’ lines (404), factory managers, operators, auditors and reviewing oneself', async () => {
    const id = await inspection(lineOfLc, u.operator.id);
    // Outside its lines the inspection does not exist for an LC manager, as with reading it.
    const other = await review(u.lc2, id, 'reject');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: 'Inspection not found' });
    expect((await review(u.operator, id, 'approve')).statusCode).toBe(403);
    expect((await review(u.audit, id, 'approve')).statusCode).toBe(403);
    const own = await inspection(lineOfLc, u.lc.id);
    expect((await review(u.lc, own, 'approve')).statusCode).toBe(403);
    // The list says who may sign before anyone tries (the cards offer no buttons otherwise).
    const signBlockerOf = async (auth: { authorization: string }, inspectionId: string) =>
      (await t.app.inject({ url: '/api/inspections', headers: auth }))
        .json()
        .find((row: { _id: string }) => row._id === inspectionId)?.signBlocker;
    expect(await signBlockerOf(u.lc.auth, id)).toBeNull();
    expect(await signBlockerOf(u.lc.auth, own)).toBe(
      'The operator of an inspection cannot sign it',
    );
    expect(await signBlockerOf(u.factory.auth, id)).toBe(
      'Only the line’s LC manager or an admin signs this record',
    );
    // Issue 18: a factory manager sees every record but does not sign; it is told why.
    const overseer = await review(u.factory, id, 'reject', REJECTION_REASON);
    expect(overseer.statusCode).toBe(403);
    expect(overseer.json().message).toBe(
      'Only the line’s LC manager or an admin signs this record',
    );
    const ownRefusal = await review(u.lc, own, 'reject', REJECTION_REASON);
    expect(ownRefusal.json().message).toBe('The operator of an inspection cannot sign it');
    const rejected = await review(u.admin, id, 'reject', REJECTION_REASON);
    expect(rejected.json()).toMatchObject({ status: 'rejected', reviewerId: u.admin.id });
  });

  it('signs only with a password the signer chose, never for an operator whose password the signer chose', async () => {
    const signIn = async (email: string, password: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password },
      });
      return { authorization: `Bearer ${res.json().token}` };
    };
    const changeOwn = (auth: { authorization: string }, from: string, to: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/change-password',
        headers: auth,
        payload: { currentPassword: from, newPassword: to },
      });
    // The LC manager makes an operator with a password it chose, and signs in as it.
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: u.lc.auth,
      payload: { name: 'Puppet', email: 'puppet@example.com', password: 'chosen-by-lc-1' },
    });
    expect(made.statusCode).toBe(201);
    const puppet = made.json()._id as string;
    const id = await inspection(lineOfLc, puppet);
    const refused = await review(u.lc, id, 'reject', REJECTION_REASON);
    expect(refused.statusCode).toBe(403);
    const operatorRule =
      'You set the password of this inspection’s operator: they must set their own (Profile, Change password) before you can sign their inspections';
    expect(refused.json().message).toBe(operatorRule);
    const signBlockerOf = async (auth: { authorization: string }, inspectionId: string) =>
      (await t.app.inject({ url: '/api/inspections', headers: auth }))
        .json()
        .find((row: { _id: string }) => row._id === inspectionId)?.signBlocker;
    expect(await signBlockerOf(u.lc.auth, id)).toBe(operatorRule);
    // Another signer did not choose it; once the operator sets its own, the LC manager signs too.
    expect(await signBlockerOf(u.admin.auth, id)).toBeNull();
    // The operator learns it at sign-in (the app says so), and no more once it set its own.
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'puppet@example.com', password: 'chosen-by-lc-1' },
    });
    expect(first.json().ownPassword).toBe(false);
    const operator = { authorization: `Bearer ${first.json().token}` };
    const own = await changeOwn(operator, 'chosen-by-lc-1', 'my-own-secret-1');
    expect(own.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${own.json().token}` },
    });
    expect(me.json().ownPassword).toBe(true);
    expect(await signBlockerOf(u.lc.auth, id)).toBeNull();

    // A signer whose password an admin reset signs nothing until it sets its own: the server
    // serves it nothing else either.
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${u.lc2.id}`,
      headers: u.admin.auth,
      payload: { name: 'lc2', email: u.lc2.email, password: 'reset-by-admin-1' },
    });
    expect(reset.statusCode).toBe(200);
    const lc2 = await signIn(u.lc2.email, 'reset-by-admin-1');
    const other = await inspection(lineOfLc2, u.operator2.id);
    const before = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${other}/reject`,
      headers: lc2,
      payload: { userId: u.lc2.email, password: 'reset-by-admin-1', notes: REJECTION_REASON },
    });
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(SET_OWN_PASSWORD_FIRST);
    // A new password: the one lc2 had before the reset is among its last ones (PASSWORD_HISTORY).
    const changed = await changeOwn(lc2, 'reset-by-admin-1', 'signer-chose-this-1');
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${other}/reject`,
      headers: { authorization: `Bearer ${changed.json().token}` },
      payload: { userId: u.lc2.email, password: 'signer-chose-this-1', notes: REJECTION_REASON },
    });
    expect(after.json()).toMatchObject({ status: 'rejected', reviewerId: u.lc2.id });
  });

  it('refuses another user’s ID before the password: audited, not counted toward the lockout', async () => {
    const id = await inspection(lineOfLc, u.operator.id, 'none');
    const reject = (userId: string, password: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/inspections/${id}/reject`,
        headers: u.lc.auth,
        payload: { notes: REJECTION_REASON, userId, password },
      });
    const { credentials, db } = t.services.ctx;
    const check = credentials.check;
    let hashed = 0;
    credentials.check = async (...args) => {
      hashed++;
      return check.apply(credentials, args);
    };
    const answers = [];
    try {
      // With the right password, then more wrong ones than the lockout allows.
      answers.push(await reject(u.lc2.email, PASSWORD));
      for (const userId of [u.admin.email, `x${u.lc.email}`, u.operator.email, ' ', 'lc', 'lc2']) {
        answers.push(await reject(userId, 'not-the-password'));
      }
    } finally {
      credentials.check = check;
    }
    for (const res of answers) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(
        'The user ID is not yours: sign with your own user ID and password; nothing was signed',
      );
    }
    // Neither a password hashed nor a failure counted: no password was tried.
    expect(hashed).toBe(0);
    const lockouts = await db
      .select()
      .from(accountLockouts)
      .where(eq(accountLockouts.userId, u.lc.id));
    expect(lockouts.filter((row) => row.failures > 0 || row.lockedUntil)).toEqual([]);
    const entries = await db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(entries.map((row) => [row.action, row.actorId, row.newValue])).toEqual(
      answers.map(() => [
        'signature.failed',
        u.lc.id,
        { meaning: 'rejected', reason: "user ID not the signer's" },
      ]),
    );
    const failed = await db.select().from(auditLog).where(eq(auditLog.actorId, u.lc.id));
    expect(failed.filter((entry) => entry.action === 'signature.password-failed')).toEqual([]);
    const [row] = await db.select().from(inspections).where(eq(inspections.id, id));
    expect(row?.status).toBe('pending');

    // One's own email as the sign-in takes it (spaces and case aside) signs: the account is not
    // locked.
    const signed = await reject(`  ${u.lc.email.toUpperCase()} `, PASSWORD);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({
      status: 'rejected',
      signature: { signerId: u.lc.id, signerEmail: u.lc.email, meaning: 'rejected' },
    });
  });

  it('400 naming body.userId when the user ID is missing; nothing is signed', async () => {
    const id = await inspection(lineOfLc, u.operator.id, 'none');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${id}/reject`,
      headers: u.lc.auth,
      payload: { notes: REJECTION_REASON, password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('body.userId is required');
    const [row] = await t.services.ctx.db.select().from(inspections).where(eq(inspections.id, id));
    expect(row?.status).toBe('pending');
    // The API description says what the field is.
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const body =
      doc.paths['/api/inspections/{id}/reject'].patch.requestBody.content['application/json']
        .schema;
    expect(body.required).toEqual(expect.arrayContaining(['userId', 'password']));
    expect(body.properties.userId.description).toMatch(/^The signer's user ID: the email it signs/);
  });

  it('404 for an unknown inspection, 400 for a bad id or notes', async () => {
    expect((await review(u.admin, newId(), 'approve')).statusCode).toBe(404);
    expect((await review(u.admin, 'zzz', 'approve')).json().message).toMatch(/^params\.id /);
    const id = await inspection(lineOfLc, u.operator.id);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${id}/approve`,
      headers: u.admin.auth,
      payload: { notes: 5, userId: u.admin.email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.notes /);
  });
});
