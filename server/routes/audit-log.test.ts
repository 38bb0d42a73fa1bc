import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditReason } from '../audit/reason.ts';
import { recordHistory } from '../audit/record-history.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
import { build, type TestApp } from '../test/build.ts';
import {
  type CaptureLines,
  createCaptureLines,
  submit,
  webmBytes,
} from '../test/capture-fixture.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;

beforeAll(async () => {
  t = await build({ MAX_VIDEO_BYTES: '100000' });
  // The analysis has tests of its own: here a verified file only queues it.
  vi.spyOn(t.services.ctx.analysis, 'enqueue').mockResolvedValue(null);
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t.close());

/** RFC 4180 as csvChunks writes it: a byte order mark, CRLF rows, quoted cells with doubled quotes. */
function parseCsv(text: string) {
  expect(text.startsWith('\ufeff')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .slice(0, -1)
        .map(([, cell = '']) =>
          cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell,
        ),
    );
}

describe('the reason of an audit entry', () => {
  it('is the new value’s reason, else its signature’s notes', () => {
    expect(auditReason({ reason: 'wrong password' })).toBe('wrong password');
    expect(
      auditReason({ status: 'approved', signature: { notes: 'Seen clear after cleaning' } }),
    ).toBe('Seen clear after cleaning');
    expect(auditReason({ reason: '', signature: { notes: 'the notes' } })).toBeNull();
    expect(auditReason({ status: 'approved' })).toBeNull();
    expect(auditReason({ reason: 42 })).toBeNull();
    expect(auditReason('text')).toBeNull();
    expect(auditReason(null)).toBeNull();
  });

  it('is answered on each entry and exported in the CSV’s reason column', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: u.operator.email, password: 'not-the-password' },
    });
    expect(login.statusCode).toBe(401);
    const query = `action=login.failed&entityId=${u.operator.id}`;
    const entries = await t.app.inject({ url: `/api/audit-log?${query}`, headers: u.audit.auth });
    expect(entries.json()).toEqual([
      expect.objectContaining({ action: 'login.failed', reason: 'wrong password' }),
    ]);
    const csv = await t.app.inject({ url: `/api/audit-log.csv?${query}`, headers: u.audit.auth });
    const [header = [], row = []] = parseCsv(csv.body);
    expect(header).toContain('reason');
    expect(row[header.indexOf('reason')]).toBe('wrong password');
    expect(row[header.indexOf('new value')]).toBe('{"reason":"wrong password"}');
    // A refusal's reason; an entry without one has an empty cell, as the API's null.
    await t.app.inject({ url: '/api/audit-log', headers: u.operator.auth });
    const refused = await t.app.inject({
      url: `/api/audit-log.csv?action=authorization.denied&actor=${u.operator.id}`,
      headers: u.audit.auth,
    });
    expect(parseCsv(refused.body)[1]?.[header.indexOf('reason')]).toBe(
      'role required: audit or factory_manager or admin',
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: u.admin.auth,
      payload: { name: 'Blister 1' },
    });
    const created = await t.app.inject({
      url: '/api/audit-log.csv?action=create&entity=line-clearance',
      headers: u.audit.auth,
    });
    const [, creation = []] = parseCsv(created.body);
    expect(creation[header.indexOf('action')]).toBe('create');
    expect(creation[header.indexOf('reason')]).toBe('');
  });
});

describe('the trail CSV', () => {
  it('streams every selected entry, page after page, newest first, never built whole', async () => {
    // More entries than one page of the export (2,000), written as the server writes them.
    await t.services.ctx.db.execute(sql`
      insert into audit_log (action, entity, entity_id, new_value)
      select 'bulk.test', 'test', g::text, jsonb_build_object('n', g)
      from generate_series(1, 2100) g`);
    const res = await t.app.inject({
      url: '/api/audit-log.csv?action=bulk.test',
      headers: u.audit.auth,
    });
    expect(res.statusCode).toBe(200);
    // Sent as it is read (no length known in advance), not as one string in memory.
    expect(res.headers['content-length']).toBeUndefined();
    const [header = [], ...rows] = parseCsv(res.body);
    const ids = rows.map((row) => Number(row[header.indexOf('id')]));
    expect(ids).toHaveLength(2100);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(2100);
    expect(rows.at(-1)?.[header.indexOf('entity id')]).toBe('1');
  });
});

/** A whole-file tus upload of `file` for the video, declaring `declared` as its SHA-256. */
async function upload(videoId: string, file: Buffer, declared: string) {
  const tus = { ...u.operator.auth, 'tus-resumable': '1.0.0' };
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...tus,
      'upload-length': String(file.length),
      'upload-metadata': `videoId ${b64(videoId)},sha256 ${b64(declared)},filetype ${b64('video/webm')}`,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const location = created.headers.location as string;
  return t.app.inject({
    method: 'PATCH',
    url: location,
    headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: file,
  });
}

describe('a record’s whole history (GET /api/audit-log?record=)', () => {
  it('gathers the inspection’s, its video’s and its uploads’ entries, even after the video is gone', async () => {
    const { inspection, videoId } = await submit(t, u.operator, lines.lineA);
    const other = await submit(t, u.operator, lines.lineA);
    const file = webmBytes(20_000);
    const sha256 = createHash('sha256').update(file).digest('hex');
    // A first upload refused for its checksum (its row is gone), then the one that verifies.
    expect((await upload(videoId, file, 'f'.repeat(64))).statusCode).toBe(460);
    expect((await upload(videoId, file, sha256)).statusCode).toBe(204);
    const otherFile = webmBytes(20_000);
    await upload(other.videoId, otherFile, createHash('sha256').update(otherFile).digest('hex'));

    const read = async (who: keyof RoleUsers, id = inspection._id) =>
      t.app.inject({ url: `/api/audit-log?record=${id}`, headers: u[who].auth });
    const res = await read('audit');
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json() as AuditEntry[];
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const what = (list: AuditEntry[]) => list.map((e) => `${e.action} ${e.entity}`).reverse();
    expect(what(entries)).toEqual([
      'create video',
      'create inspection',
      'upload.create upload',
      'upload.complete upload',
      'upload.reject upload',
      'upload.create upload',
      'upload.complete upload',
      'verify video',
    ]);
    const verify = entries.find((entry) => entry.action === 'verify');
    expect(verify).toMatchObject({ entityId: videoId, newValue: { sha256 } });
    expect(entries.find((e) => e.action === 'upload.reject')?.reason).toMatch(/SHA-256 mismatch/);
    // Nothing of the other inspection's.
    const others = [other.inspection._id, other.videoId];
    expect(entries.filter((entry) => others.includes(entry.entityId ?? ''))).toEqual([]);
    // The server function answers the same entries, oldest first.
    expect((await recordHistory(t.services.ctx.db, inspection._id))?.map((e) => e.id)).toEqual(
      [...ids].reverse(),
    );
    // Combined with the other filters, and exported as CSV.
    const uploadsOnly = await t.app.inject({
      url: `/api/audit-log?record=${inspection._id}&entity=upload&limit=2`,
      headers: u.factory.auth,
    });
    expect(what(uploadsOnly.json())).toEqual(['upload.create upload', 'upload.complete upload']);
    const csv = await t.app.inject({
      url: `/api/audit-log.csv?record=${inspection._id}`,
      headers: u.admin.auth,
    });
    expect(parseCsv(csv.body)).toHaveLength(entries.length + 1);

    // A deleted video leaves the inspection; its history stays the record's.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoId}`,
      headers: u.admin.auth,
      payload: { reason: 'Recorded on the wrong line by mistake' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = (await read('audit')).json() as AuditEntry[];
    expect(what(after)).toEqual([...what(entries), 'delete video']);

    // The trail's readers only (LC managers see their lines, not the trail); an unknown id is 404.
    expect((await read('lc')).statusCode).toBe(403);
    expect((await read('operator')).statusCode).toBe(403);
    const unknown = await read('audit', 'a'.repeat(24));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Inspection not found');
  });
});

describe('the request’s address', () => {
  it('is answered on each entry to the trail’s readers only', async () => {
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@test.example', password: 'wrong-password' },
      remoteAddress: '192.0.2.9',
    });
    expect(failed.statusCode).toBe(401);
    const read = (who: keyof RoleUsers) =>
      t.app.inject({
        url: '/api/audit-log?action=login.failed&actor=nobody@test.example',
        headers: u[who].auth,
      });
    for (const reader of ['audit', 'factory', 'admin'] as const) {
      expect((await read(reader)).json()).toEqual([
        expect.objectContaining({ action: 'login.failed', ip: '192.0.2.9' }),
      ]);
    }
    // An address is personal data: LC managers and operators do not read the trail.
    expect((await read('lc')).statusCode).toBe(403);
    expect((await read('operator')).statusCode).toBe(403);
  });
});
