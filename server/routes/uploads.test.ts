import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, lineClearances, uploads, videos } from '../db/schema.ts';
import { createVideoUploads, MAX_OPEN_UPLOADS } from '../services/video-uploads.ts';
import { build, type TestApp } from '../test/build.ts';
import {
  type CaptureLines,
  createCaptureLines,
  submit,
  webmBytes,
} from '../test/capture-fixture.ts';
import { createRoleUsers, PASSWORD, type RoleUsers, type TestUser } from '../test/fixtures.ts';
import { UPLOADS_PATH } from './uploads.ts';

let t: TestApp;
let u: RoleUsers;
let lines: CaptureLines;
const enqueued: [string, string | null][] = [];

beforeAll(async () => {
  t = await build({ MAX_VIDEO_BYTES: '100000' });
  // The pipeline has tests of its own: here only the hand-over counts.
  vi.spyOn(t.services.ctx.analysis, 'enqueue').mockImplementation(async (id, by) => {
    enqueued.push([id, by]);
    return null;
  });
  u = await createRoleUsers(t);
  lines = await createCaptureLines(t, u);
});
afterAll(() => t.close());

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function metadataHeader(fields: Record<string, string>) {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',');
}

async function create(user: TestUser, size: number, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...user.auth,
      ...TUS,
      'upload-length': String(size),
      'upload-metadata': metadataHeader(fields),
    },
  });
}

/** Another upload of the whole file for the video, as the recorder. */
const createFor = (videoId: string, file: Buffer) =>
  create(u.operator, file.length, { videoId, sha256: sha256(file), filetype: 'video/webm' });

const patch = (user: TestUser, location: string, offset: number, bytes: Buffer) =>
  t.app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...user.auth,
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });

const head = (user: TestUser, location: string) =>
  t.app.inject({ method: 'HEAD', url: location, headers: { ...user.auth, ...TUS } });

/** A submitted inspection and a created upload of `file` for its video. */
async function started(file: Buffer, declared = sha256(file)) {
  const { videoId, videoFilename } = await submit(t, u.operator, lines.lineA);
  const res = await create(u.operator, file.length, {
    videoId,
    sha256: declared,
    filetype: 'video/webm;codecs=vp9',
    filename: 'inspection.webm',
  });
  expect(res.statusCode, res.body).toBe(201);
  const location = res.headers.location as string;
  expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{24}$/);
  return { videoId, videoFilename, location, id: location.split('/').pop() as string };
}

const actions = async (entityId: string) =>
  (
    await t.services.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, entityId))
      // In the order written: without it PostgreSQL may answer them in any order.
      .orderBy(asc(auditLog.id))
  ).map((row) => row.action);

describe('tus uploads', () => {
  it('creates, resumes after a cut and verifies the SHA-256, then enqueues the analysis', async () => {
    const file = webmBytes(50_000);
    const { videoId, videoFilename, location, id } = await started(file);
    expect((await patch(u.operator, location, 0, file.subarray(0, 20_000))).statusCode).toBe(204);
    // The connection drops: the device asks where to resume.
    const at = await head(u.operator, location);
    expect(at.statusCode).toBe(200);
    expect(at.headers['upload-offset']).toBe('20000');
    expect(at.headers['upload-length']).toBe('50000');
    expect(at.headers['upload-expires']).toBeUndefined();
    // A chunk sent at a stale offset changes nothing.
    expect((await patch(u.operator, location, 10_000, file.subarray(10_000))).statusCode).toBe(409);
    const last = await patch(u.operator, location, 20_000, file.subarray(20_000));
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-offset']).toBe('50000');

    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video).toMatchObject({ sha256: sha256(file), size: 50_000, status: 'pending' });
    expect(enqueued).toContainEqual([videoId, u.operator.id]);
    const served = await t.app.inject({
      url: `/api/videos/${videoFilename}`,
      headers: u.operator.auth,
    });
    expect(served.statusCode).toBe(200);
    expect(sha256(served.rawPayload)).toBe(sha256(file));
    // A device that lost the last answer learns that the upload finished.
    expect((await head(u.operator, location)).headers['upload-offset']).toBe('50000');
    expect(await actions(id)).toEqual(['upload.create', 'upload.complete']);
    expect(await actions(videoId)).toEqual(['create', 'verify']);
    // The video has its file: no second upload.
    const second = await createFor(videoId, file);
    expect(second.statusCode).toBe(409);
  });

  it('verifies on the resuming HEAD when the server stopped after the last byte, before verifying', async () => {
    const stoppedAfterLastByte = async (file: Buffer, lastByte: Buffer) => {
      const started_ = await started(file);
      const { location, id } = started_;
      const allButLast = file.subarray(0, file.length - 1);
      expect((await patch(u.operator, location, 0, allButLast)).statusCode).toBe(204);
      // The last byte reached the disk; the verification that follows it in the PATCH did not run.
      await t.services.ctx.storage.append(`uploads/${id}`, Readable.from([lastByte]));
      return started_;
    };
    const file = webmBytes(30_000);
    const { videoId, location, id } = await stoppedAfterLastByte(file, file.subarray(-1));
    // tus-js-client resumes with a HEAD: a complete offset is success to it, and the phone then
    // deletes its copy. So the HEAD answers complete only once the file is verified.
    const resumed = await head(u.operator, location);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.headers['upload-offset']).toBe(String(file.length));
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video?.sha256).toBe(sha256(file));
    expect(await actions(id)).toEqual(['upload.create', 'upload.complete']);
    expect(enqueued).toContainEqual([videoId, u.operator.id]);

    // A last byte that makes another file: the HEAD refuses it, and the device keeps its copy.
    const other = webmBytes(30_001).subarray(0, 30_000);
    const wrong = await stoppedAfterLastByte(other, Buffer.from([(other.at(-1) ?? 0) ^ 0xff]));
    const refused = await head(u.operator, wrong.location);
    expect(refused.statusCode).toBe(460);
    expect(await actions(wrong.id)).toEqual(['upload.create', 'upload.complete', 'upload.reject']);
  });

  it('resumes and verifies across a server restart (the stored file is hashed)', async () => {
    // Two on-disk databases are opened in turn: slower than the other tests.
    const first = await build({}, { onDisk: true });
    const users = await createRoleUsers(first);
    const own = await createCaptureLines(first, users);
    const file = webmBytes(30_000);
    const { videoId } = await submit(first, users.operator, own.lineA);
    const created = await first.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...users.operator.auth,
        ...TUS,
        'upload-length': String(file.length),
        'upload-metadata': metadataHeader({
          videoId,
          sha256: sha256(file),
          filetype: 'video/webm',
        }),
      },
    });
    const location = created.headers.location as string;
    const send = (app: TestApp, offset: number, bytes: Buffer) =>
      app.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...users.operator.auth,
          ...TUS,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        payload: bytes,
      });
    expect((await send(first, 0, file.subarray(0, 10_000))).statusCode).toBe(204);
    await first.stop();
    // The same data directory and database, a new process: no running hash survives.
    const second = await build(first.env, { onDisk: true, postgresUrl: null });
    try {
      expect((await send(second, 10_000, file.subarray(10_000))).statusCode).toBe(204);
      const [video] = await second.services.ctx.db
        .select()
        .from(videos)
        .where(eq(videos.id, videoId));
      expect(video?.sha256).toBe(sha256(file));
    } finally {
      await second.stop();
      await first.close();
    }
  }, 120_000);

  it('takes no file for an inspection signed before it arrived: the signed record stays as signed', async () => {
    const file = webmBytes(50_000);
    const { videoId, location, id } = await started(file);
    expect((await patch(u.operator, location, 0, file.subarray(0, 20_000))).statusCode).toBe(204);
    const { inspection } = (
      await t.app.inject({ url: '/api/my/inspections', headers: u.operator.auth })
    )
      .json()
      .find((m: { video: { _id: string } | null }) => m.video?._id === videoId);
    const rejected = await t.app.inject({
      method: 'PATCH',
      url: `/api/inspections/${inspection._id}/reject`,
      headers: u.lc.auth,
      payload: { notes: 'No video arrived; inspect again', userId: u.lc.email, password: PASSWORD },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const late =
      /^The video is evidence of a signed inspection \(rejected [^)]+\); its file can no longer be added: discard the recording on the device$/;
    // The rest of the file arrives: refused, and nothing of it is kept.
    const last = await patch(u.operator, location, 20_000, file.subarray(20_000));
    expect(last.statusCode).toBe(409);
    expect(last.body.trim()).toMatch(late);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video?.sha256).toBeNull();
    expect(await t.services.ctx.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
    expect(await actions(id)).toEqual(['upload.create', 'upload.complete', 'upload.reject']);
    const report = await t.app.inject({
      url: `/api/reports/${inspection._id}`,
      headers: u.lc.auth,
    });
    expect(report.json().unchangedSinceSigning).toBe(true);
    // A new upload of the file is refused at once.
    const again = await createFor(videoId, file);
    expect(again.statusCode).toBe(409);
    expect(again.body.trim()).toMatch(late);
  });

  it('answers a full disk during a PATCH with 507, and the upload resumes after what reached the disk', async () => {
    const file = webmBytes(50_000);
    const { videoId, location, id } = await started(file);
    expect((await patch(u.operator, location, 0, file.subarray(0, 20_000))).statusCode).toBe(204);
    // The disk fills 7000 bytes into the next chunk: those reached it, the write of the rest
    // fails as Node's fs reports it.
    const { storage } = t.services.ctx;
    const append = storage.append.bind(storage);
    vi.spyOn(storage, 'append').mockImplementationOnce(async (key, data) => {
      const bytes = Buffer.concat(await data.toArray());
      await append(key, Readable.from([bytes.subarray(0, 7_000)]));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        errno: -28,
        code: 'ENOSPC',
        syscall: 'write',
      });
    });
    const full = await patch(u.operator, location, 20_000, file.subarray(20_000));
    expect(full.statusCode).toBe(507);
    expect(full.body).toBe(
      "The server's storage is full, so the upload stopped; it goes on from what the server received once there is room. Tell the administrator (the server log has the details).\n",
    );
    // The device asks where to go on: after the bytes that were written, not counted twice.
    const at = await head(u.operator, location);
    expect(at.headers['upload-offset']).toBe('27000');
    const rest = await patch(u.operator, location, 27_000, file.subarray(27_000));
    expect(rest.statusCode).toBe(204);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video?.sha256).toBe(sha256(file));
    expect(await actions(id)).toEqual(['upload.create', 'upload.complete']);
  });

  it('rejects a file whose SHA-256 differs and keeps nothing of it', async () => {
    const file = webmBytes(20_000);
    const { videoId, location, id } = await started(file, sha256(Buffer.from('something else')));
    const res = await patch(u.operator, location, 0, file);
    expect(res.statusCode).toBe(460);
    expect(res.body).toContain('does not match the SHA-256');
    expect((await head(u.operator, location)).statusCode).toBe(404);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(video?.sha256).toBeNull();
    expect(await t.services.ctx.storage.stat(`uploads/${id}`)).toBeNull();
    expect(await actions(id)).toEqual(['upload.create', 'upload.complete', 'upload.reject']);
    // The device keeps its copy and tries again.
    const retry = await createFor(videoId, file);
    expect(retry.statusCode).toBe(201);
  });

  it('refuses a file already stored as another video: one recording is the evidence of one inspection', async () => {
    const file = webmBytes(30_000);
    const { location } = await started(file);
    expect((await patch(u.operator, location, 0, file)).statusCode).toBe(204);
    // The same recording offered for a new inspection: refused when the upload is created…
    const { videoId } = await submit(t, u.operator, lines.lineA);
    const again = await createFor(videoId, file);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('identical (the same SHA-256) to a video already stored');
    expect(await actions(videoId)).toContain('evidence.protected');
    // …and when two uploads of one file for two videos were both created before either finished.
    const twin = webmBytes(30_000);
    const first = await submit(t, u.operator, lines.lineA);
    const second = await submit(t, u.operator, lines.lineA);
    const locations = [
      (await createFor(first.videoId, twin)).headers.location as string,
      (await createFor(second.videoId, twin)).headers.location as string,
    ];
    const finished = [];
    for (const at of locations) finished.push(await patch(u.operator, at, 0, twin));
    expect(finished.map((res) => res.statusCode)).toEqual([204, 409]);
    expect(finished[1]?.body).toContain('identical (the same SHA-256) to a video already stored');
    const [kept] = await t.services.ctx.db
      .select()
      .from(videos)
      .where(eq(videos.id, second.videoId));
    expect(kept?.sha256).toBeNull();
  });

  it('keeps at most MAX_OPEN_UPLOADS unfinished uploads of one video', async () => {
    const file = webmBytes(10_000);
    const { videoId } = await started(file);
    for (let n = 1; n < MAX_OPEN_UPLOADS; n++) {
      expect((await createFor(videoId, file)).statusCode).toBe(201);
    }
    const over = await createFor(videoId, file);
    expect(over.statusCode).toBe(409);
    expect(over.body).toContain(`already has ${MAX_OPEN_UPLOADS} unfinished uploads`);
  });

  it('keeps the file whose hash it records when two uploads of one video finish at once', async () => {
    const [first, second] = [webmBytes(20_000), webmBytes(20_000)];
    const { videoId, videoFilename, location } = await started(first);
    const other = (await createFor(videoId, second)).headers.location as string;
    expect(other).toMatch(/^\/api\/uploads\//);
    const finished = await Promise.all([
      patch(u.operator, location, 0, first),
      patch(u.operator, other, 0, second),
    ]);
    // One of them is the video's file; the other is refused and nothing of it is kept.
    expect(finished.map((res) => res.statusCode).sort()).toEqual([204, 409]);
    const [video] = await t.services.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    const served = await t.app.inject({
      url: `/api/videos/${videoFilename}`,
      headers: u.operator.auth,
    });
    expect(served.statusCode).toBe(200);
    expect(sha256(served.rawPayload)).toBe(video?.sha256);
    expect([sha256(first), sha256(second)]).toContain(video?.sha256);
    const left = await t.services.ctx.db.select().from(uploads).where(eq(uploads.videoId, videoId));
    expect(left.map((row) => row.status)).toEqual(['verified']);
    const refusedId = [location, other].find((l) => !l.endsWith(left[0]?.id ?? '')) as string;
    expect(await actions(refusedId.split('/').pop() as string)).toEqual([
      'upload.create',
      'upload.complete',
      'upload.reject',
    ]);
    // Deleting the video leaves no empty folder of its own behind.
    const folder = `${t.dataDir}/files/videos/${videoId}`;
    expect(fs.readdirSync(folder)).toHaveLength(1);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${videoId}`,
      headers: u.admin.auth,
      payload: { reason: 'Recorded on the wrong line by mistake' },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(fs.existsSync(folder)).toBe(false);
    expect(fs.existsSync(`${t.dataDir}/files/videos`)).toBe(true);
  });

  it('checks the container by the first bytes (415), and the size limit (413)', async () => {
    const notVideo = Buffer.alloc(5000, 0x41);
    const { location, id } = await started(notVideo);
    const res = await patch(u.operator, location, 0, notVideo);
    expect(res.statusCode).toBe(415);
    expect(res.body).toContain('not a WebM or MP4 video');
    expect(await actions(id)).toEqual(['upload.create', 'upload.reject']);
    const { videoId } = await submit(t, u.operator, lines.lineA);
    const big = await create(u.operator, 100_001, {
      videoId,
      sha256: 'a'.repeat(64),
      filetype: 'video/webm',
    });
    expect(big.statusCode).toBe(413);
    const mp4 = await create(u.operator, 1000, {
      videoId,
      sha256: 'a'.repeat(64),
      filetype: 'video/mp4',
    });
    expect(mp4.statusCode).toBe(415);
  });

  it('lets only the recorder upload, on a line still assigned to it', async () => {
    const { videoId } = await submit(t, u.operator, lines.lineA);
    const fields = { videoId, sha256: 'b'.repeat(64), filetype: 'video/webm' };
    expect((await create(u.operator2, 1000, fields)).statusCode).toBe(404);
    expect((await create(u.admin, 1000, fields)).statusCode).toBe(403);
    expect((await create(u.audit, 1000, fields)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...TUS, 'upload-length': '1000', 'upload-metadata': metadataHeader(fields) },
    });
    expect(anonymous.statusCode).toBe(401);
    const { location } = await started(webmBytes(1000));
    expect((await head(u.operator2, location)).statusCode).toBe(404);
    expect((await patch(u.operator2, location, 0, webmBytes(10))).statusCode).toBe(404);
    // Unassigned from the line meanwhile: no new upload.
    await t.services.ctx.db
      .update(lineClearances)
      .set({ assignedOperators: [] })
      .where(eq(lineClearances.id, lines.lineA));
    try {
      expect((await create(u.operator, 1000, fields)).statusCode).toBe(403);
    } finally {
      await t.services.ctx.db
        .update(lineClearances)
        .set({ assignedOperators: [u.operator.id] })
        .where(eq(lineClearances.id, lines.lineA));
    }
  });

  it('refuses metadata with path separators or NUL, and bad fields, naming them', async () => {
    const { videoId } = await submit(t, u.operator, lines.lineA);
    const good = { videoId, sha256: 'c'.repeat(64), filetype: 'video/webm' };
    const cases: [Record<string, string>, string][] = [
      [{ ...good, filename: '../../etc/passwd' }, 'Upload-Metadata.filename'],
      [{ ...good, filename: 'a\0b.webm' }, 'Upload-Metadata.filename'],
      [{ ...good, videoId: `${videoId.slice(0, 23)}\0` }, 'Upload-Metadata.videoId'],
      [{ ...good, videoId: '../uploads' }, 'Upload-Metadata.videoId'],
      [{ ...good, sha256: 'XYZ' }, 'Upload-Metadata.sha256'],
      [{ videoId, filetype: 'video/webm' }, 'Upload-Metadata.sha256 is required'],
      // Shown in the trail: no text that displays as other text.
      [
        { ...good, filename: 'evil\u202eabew.webm' },
        'Upload-Metadata.filename contains an invisible direction control (U+202E)',
      ],
    ];
    for (const [fields, message] of cases) {
      const res = await create(u.operator, 1000, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(
      await t.services.ctx.db.select().from(uploads).where(eq(uploads.videoId, videoId)),
    ).toEqual([]);
  });

  it('removes expired unfinished uploads with their bytes, audited', async () => {
    const file = webmBytes(4000);
    const { location, id } = await started(file);
    expect((await patch(u.operator, location, 0, file.subarray(0, 1000))).statusCode).toBe(204);
    await t.services.ctx.db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - 73 * 3600 * 1000) })
      .where(eq(uploads.id, id));
    // Past its expiry an upload answers 410 even before the sweep.
    expect((await head(u.operator, location)).statusCode).toBe(410);
    const sweeper = createVideoUploads(t.services.ctx, t.app.log, UPLOADS_PATH);
    expect(await sweeper.expire()).toBe(1);
    expect((await head(u.operator, location)).statusCode).toBe(404);
    expect(await t.services.ctx.storage.stat(`uploads/${id}`)).toBeNull();
    expect(await actions(id)).toEqual(['upload.create', 'upload.expire']);
  });
});
