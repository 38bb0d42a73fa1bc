// Role × route matrix: every /api route of the OpenAPI document, called by anonymous and by each
// role, including other users' objects. The table is the single source the test walks; keep it in
// step with docs/permissions.md.
import { createHash } from 'node:crypto';
import { and, count, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, inspections, predictions, videos } from '../db/schema.ts';
import { DEMO_PASSWORD } from '../demo/load-demo.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from './build.ts';
import { submission, webmBytes } from './capture-fixture.ts';
import { type DemoKey, loadFixture, PNG, VIDEO_BYTES } from './demo-fixture.ts';

type Who = 'anon' | DemoKey;
const EVERYONE: DemoKey[] = [
  'admin',
  'factory',
  'lcmanager',
  'lcmanager2',
  'audit',
  'operator',
  'operator2',
];
const MANAGERS: DemoKey[] = ['admin', 'factory', 'lcmanager', 'lcmanager2'];
/** Line A is managed by lcmanager; its operator is "operator". */
const MANAGE_LINE_A: DemoKey[] = ['admin', 'factory', 'lcmanager'];
/** Who signs line A's records and decides on their detections: its LC manager or an admin. */
const SIGN_LINE_A: DemoKey[] = ['admin', 'lcmanager'];

interface Request {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  multipart?: { lineId: string };
  /** Sent without the caller's token (logout would end the session the other rows use). */
  anonymous?: boolean;
}

interface Row {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path template the row covers. */
  route: string;
  /** Builds a fresh request (and its target object) for each caller. */
  request: (who: Who) => Promise<Request> | Request;
  ok: number;
  allowed: DemoKey[] | 'public';
  /** Callers for whom the object is outside their scope: 404, as if it did not exist. */
  hidden?: DemoKey[];
}

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;
const s = {} as { lineA: string; videoA: string; planAFile: () => Promise<string> };
let counter = 0;
const unique = () => `${Date.now().toString(36)}${counter++}`;

async function call(who: Who, method: Row['method'], req: Request) {
  const headers: Record<string, string> = who === 'anon' || req.anonymous ? {} : { ...f.auth[who] };
  if (req.multipart) {
    const boundary = 'matrix-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="lineID"\r\n\r\n${req.multipart.lineId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="p.png"\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    return t.app.inject({ method: 'POST', url: req.url, headers, payload });
  }
  return t.app.inject({
    method,
    url: req.url,
    headers: { ...headers, ...req.headers },
    payload: req.payload as object | undefined,
  });
}

async function as(who: DemoKey, method: Row['method'], url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: f.auth[who], payload });
  if (res.statusCode >= 300)
    throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const freshLine = async () =>
  (
    await as('admin', 'POST', '/api/line-clearances', {
      name: `L ${unique()}`,
      managerId: f.ids.lcmanager,
    })
  )._id as string;
/** A new account; an operator works on line A (managed by lcmanager) unless told otherwise. */
const freshAccount = async (
  role: string,
  lineClearanceIds = role === 'operator' ? [s.lineA] : [],
): Promise<{ _id: string; name: string; email: string }> =>
  as('admin', 'POST', '/api/users', {
    name: 'Fresh',
    email: `${unique()}@fresh.example`,
    password: 'fresh-password',
    role,
    lineClearanceIds,
  });
const freshUser = async (role: string) => (await freshAccount(role))._id;
async function freshInspectionBy(operatorId: string) {
  const id = newId();
  await t.services.ctx.db.insert(inspections).values({
    id,
    lineClearanceId: s.lineA,
    operatorId,
    videoId: s.videoA,
    startTime: new Date(),
  });
  return id;
}
const freshDevice = async () =>
  (await as('admin', 'POST', '/api/devices', { qrCode: `SN-${unique()}` }))._id as string;
const freshInspection = () => freshInspectionBy(f.ids.operator);
async function predictionOfVideoA() {
  const [row] = await t.services.ctx.db
    .select({ id: predictions.id })
    .from(predictions)
    .where(eq(predictions.videoId, s.videoA));
  return row?.id ?? '';
}
async function freshVideo() {
  const id = newId();
  await t.services.ctx.db.insert(videos).values({
    id,
    filename: `fresh-${id}.mp4`,
    storageKey: `videos/${id}.mp4`,
    subfolder: `fresh-${id}`,
    userId: f.ids.operator,
    lineClearanceId: s.lineA,
    timestamp: new Date(),
  });
  // Its file is stored, as an arrived upload's is (a re-run needs one).
  await t.services.ctx.storage.put(`videos/${id}.mp4`, VIDEO_BYTES);
  return id;
}
/** An inspection submitted by "operator" on line A, its video awaiting the file. */
const freshSubmission = async () =>
  (await as('operator', 'POST', '/api/inspections', submission(s.lineA))) as {
    inspection: { _id: string };
    videoId: string;
  };
const TUS = { 'tus-resumable': '1.0.0' };
/** An upload of new bytes each time: a file already stored as another video's is refused. */
async function freshUpload(file = webmBytes(1000)) {
  const { videoId } = await freshSubmission();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...f.auth.operator, ...uploadHeaders(videoId, file) },
  });
  return res.headers.location as string;
}
const uploadHeaders = (videoId: string, file = webmBytes(1000)) => ({
  ...TUS,
  'upload-length': String(file.length),
  'upload-metadata': `videoId ${Buffer.from(videoId).toString('base64')},sha256 ${Buffer.from(createHash('sha256').update(file).digest('hex')).toString('base64')},filetype ${Buffer.from('video/webm').toString('base64')}`,
});
/** Roles that may record inspections (the route table's /inspection roles). */
const RECORDERS: DemoKey[] = [
  'admin',
  'factory',
  'lcmanager',
  'lcmanager2',
  'operator',
  'operator2',
];

async function freshFloorplanId() {
  const res = await call('admin', 'POST', {
    url: '/api/floorplans',
    multipart: { lineId: await freshLine() },
  });
  return res.json()._id as string;
}

const matrix: Row[] = [
  {
    method: 'POST',
    route: '/api/inspections',
    request: () => ({ url: '/api/inspections', payload: submission(s.lineA) }),
    ok: 201,
    // Assigned to line A: its operator, and its manager by its own line list (demo data).
    allowed: ['operator', 'lcmanager'],
  },
  {
    method: 'PUT',
    route: '/api/inspections/{id}/capture',
    request: async () => ({
      url: `/api/inspections/${(await freshSubmission()).inspection._id}/capture`,
      payload: { scans: [], motion: null },
    }),
    ok: 201,
    allowed: ['operator'],
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'POST',
    route: '/api/videos/{id}/discard',
    request: async () => ({ url: `/api/videos/${(await freshSubmission()).videoId}/discard` }),
    ok: 200,
    allowed: ['operator'],
    hidden: ['lcmanager2', 'operator2'],
  },
  ...['/api/my/lines', '/api/my/inspections', '/api/my/devices'].map(
    (url): Row => ({
      method: 'GET',
      route: url,
      request: () => ({ url }),
      ok: 200,
      allowed: RECORDERS,
    }),
  ),
  {
    method: 'GET',
    route: '/api/my/lines/{id}',
    request: () => ({ url: `/api/my/lines/${s.lineA}` }),
    ok: 200,
    allowed: ['operator', 'lcmanager'],
  },
  {
    method: 'POST',
    route: '/api/uploads',
    request: async () => ({
      url: '/api/uploads',
      headers: uploadHeaders((await freshSubmission()).videoId),
    }),
    ok: 201,
    allowed: ['operator'],
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'HEAD',
    route: '/api/uploads/{id}',
    request: async () => ({ url: await freshUpload(), headers: TUS }),
    ok: 200,
    allowed: ['operator'],
    hidden: ['admin', 'factory', 'lcmanager', 'lcmanager2', 'operator2'],
  },
  {
    method: 'PATCH',
    route: '/api/uploads/{id}',
    request: async () => {
      const file = webmBytes(1000);
      return {
        url: await freshUpload(file),
        headers: {
          ...TUS,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        payload: file,
      };
    },
    ok: 204,
    allowed: ['operator'],
    hidden: ['admin', 'factory', 'lcmanager', 'lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/health',
    request: () => ({ url: '/api/health' }),
    ok: 200,
    allowed: 'public',
  },
  {
    method: 'GET',
    route: '/api/instance',
    request: () => ({ url: '/api/instance' }),
    ok: 200,
    allowed: 'public',
  },
  {
    method: 'POST',
    route: '/api/login',
    request: () => ({
      url: '/api/login',
      payload: { email: 'nobody@example.com', password: 'wrong-pass' },
    }),
    ok: 401,
    allowed: 'public',
  },
  {
    method: 'POST',
    route: '/api/logout',
    request: () => ({ url: '/api/logout', anonymous: true }),
    ok: 200,
    allowed: 'public',
  },
  {
    method: 'GET',
    route: '/api/me',
    request: () => ({ url: '/api/me' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/session/renew',
    request: () => ({ url: '/api/session/renew' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/change-password',
    request: () => ({
      url: '/api/change-password',
      payload: { currentPassword: 'not-my-password', newPassword: 'whatever-123' },
    }),
    ok: 401,
    allowed: EVERYONE,
  },
  ...['/api/audit-log', '/api/audit-log.csv', '/api/audit-log/facets', '/api/audit-log/verify'].map(
    (route): Row => ({
      method: 'GET',
      route,
      request: () => ({ url: route }),
      ok: 200,
      allowed: ['admin', 'factory', 'audit'],
    }),
  ),
  {
    method: 'GET',
    route: '/api/security-alerts',
    request: () => ({ url: '/api/security-alerts' }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'POST',
    route: '/api/security-alerts/review',
    // Entry 1 is in every trail: a review through it, then a stale one that changes nothing.
    request: () => ({ url: '/api/security-alerts/review', payload: { throughId: 1 } }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'GET',
    route: '/api/line-clearances',
    request: () => ({ url: '/api/line-clearances' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/line-clearances',
    request: () => ({ url: '/api/line-clearances', payload: { name: `New ${unique()}` } }),
    ok: 201,
    allowed: MANAGERS,
  },
  {
    method: 'POST',
    route: '/api/areas',
    request: () => ({
      url: '/api/areas',
      payload: { name: `Area ${unique()}`, managerId: f.ids.lcmanager },
    }),
    ok: 201,
    allowed: MANAGERS,
  },
  {
    method: 'PUT',
    route: '/api/line-clearances/{id}',
    request: async () => ({
      url: `/api/line-clearances/${await freshLine()}`,
      payload: { name: `Edited ${unique()}` },
    }),
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'DELETE',
    route: '/api/line-clearances/{id}',
    request: async () => ({ url: `/api/line-clearances/${await freshLine()}` }),
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'GET',
    route: '/api/users',
    request: () => ({ url: '/api/users' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'GET',
    route: '/api/users.csv',
    request: () => ({ url: '/api/users.csv' }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'POST',
    route: '/api/users',
    request: () => ({
      url: '/api/users',
      payload: {
        name: 'Op',
        email: `${unique()}@new.example`,
        password: 'op-password',
        role: 'operator',
      },
    }),
    ok: 201,
    allowed: MANAGERS,
  },
  {
    // An LC manager manages the operators of its own lines only.
    method: 'PUT',
    route: '/api/users/{id}',
    request: async () => {
      const user = await freshAccount('operator');
      return { url: `/api/users/${user._id}`, payload: { name: 'Renamed', email: user.email } };
    },
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    // Nobody manages an operator of no line but admins and factory managers.
    method: 'PUT',
    route: '/api/users/{id}',
    request: async () => {
      const user = await freshAccount('operator', []);
      return { url: `/api/users/${user._id}`, payload: { name: 'Renamed', email: user.email } };
    },
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    // Setting another user's email or password: admins and factory managers only.
    method: 'PUT',
    route: '/api/users/{id}',
    request: async () => ({
      url: `/api/users/${await freshUser('operator')}`,
      payload: { name: 'Renamed', email: `${unique()}@renamed.example` },
    }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'PUT',
    route: '/api/users/{id}',
    request: async () => {
      const user = await freshAccount('operator');
      return {
        url: `/api/users/${user._id}`,
        payload: { name: user.name, email: user.email, password: 'taken-over-1' },
      };
    },
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'PUT',
    route: '/api/users/{id}',
    request: async () => ({
      url: `/api/users/${await freshUser('lc_manager')}`,
      payload: { name: 'Renamed', email: `${unique()}@renamed.example` },
    }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'DELETE',
    route: '/api/users/{id}',
    request: async () => ({ url: `/api/users/${await freshUser('operator')}` }),
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    // An operator named in an inspection is GMP evidence: deactivated, never deleted.
    method: 'DELETE',
    route: '/api/users/{id}',
    request: async () => {
      const id = await freshUser('operator');
      await freshInspectionBy(id);
      return { url: `/api/users/${id}` };
    },
    ok: 409,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'POST',
    route: '/api/users/{id}/unlock',
    request: async () => ({ url: `/api/users/${await freshUser('operator')}/unlock` }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'DELETE',
    route: '/api/users/{id}',
    request: async () => ({ url: `/api/users/${await freshUser('admin')}` }),
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'GET',
    route: '/api/devices',
    request: () => ({ url: '/api/devices' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/devices',
    request: () => ({ url: '/api/devices', payload: { qrCode: `SN-${unique()}` } }),
    ok: 201,
    allowed: ['admin', 'factory', 'lcmanager', 'lcmanager2', 'operator', 'operator2'],
  },
  {
    method: 'PUT',
    route: '/api/devices/{id}',
    request: async () => ({ url: `/api/devices/${await freshDevice()}`, payload: { name: 'Cam' } }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'DELETE',
    route: '/api/devices/{id}',
    request: async () => ({ url: `/api/devices/${await freshDevice()}` }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  {
    method: 'GET',
    route: '/api/inspections',
    request: () => ({ url: '/api/inspections' }),
    ok: 200,
    allowed: EVERYONE,
  },
  ...(['approve', 'reject'] as const).map(
    (verb): Row => ({
      method: 'PATCH',
      route: `/api/inspections/{id}/${verb}`,
      // Signed with the caller's own user ID (its email): the role decides, not the ID.
      request: async (who) => ({
        url: `/api/inspections/${await freshInspection()}/${verb}`,
        payload: {
          notes: 'Checked on the line',
          userId: `${who}@example.com`,
          password: DEMO_PASSWORD,
        },
      }),
      ok: 200,
      allowed: SIGN_LINE_A,
      hidden: ['lcmanager2'],
    }),
  ),
  {
    method: 'PUT',
    route: '/api/inspections/{id}/dispositions/{predictionId}',
    request: async () => ({
      url: `/api/inspections/${await freshInspection()}/dispositions/${await predictionOfVideoA()}`,
      payload: { disposition: 'confirmed' },
    }),
    ok: 200,
    allowed: SIGN_LINE_A,
    hidden: ['lcmanager2'],
  },
  ...['/api/reports', '/api/reports.csv', '/api/reports/filters'].map(
    (route): Row => ({
      method: 'GET',
      route,
      request: () => ({ url: route }),
      ok: 200,
      allowed: EVERYONE,
    }),
  ),
  ...(['POST', 'GET'] as const).map(
    (method): Row => ({
      method,
      route: '/api/reports/check-signatures',
      request: () => ({ url: '/api/reports/check-signatures' }),
      // POST starts the background run (or joins it) and answers at once.
      ok: method === 'POST' ? 202 : 200,
      allowed: ['admin', 'factory', 'audit'],
    }),
  ),
  {
    method: 'GET',
    route: '/api/reports/overview',
    request: () => ({ url: '/api/reports/overview' }),
    ok: 200,
    allowed: ['admin', 'factory'],
  },
  ...['', '/pdf', '/record.json', '/evidence-check'].map(
    (suffix): Row => ({
      method: 'GET',
      route: `/api/reports/{id}${suffix}`,
      request: async () => ({ url: `/api/reports/${await freshInspection()}${suffix}` }),
      ok: 200,
      allowed: EVERYONE,
      hidden: ['lcmanager2', 'operator2'],
    }),
  ),
  {
    method: 'GET',
    route: '/api/videos',
    request: () => ({ url: '/api/videos' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'GET',
    route: '/api/videos/{ref}',
    request: () => ({ url: `/api/videos/${s.videoA}` }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/videos/{ref}',
    request: () => ({ url: '/api/videos/video-a.mp4' }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/admin/videos',
    request: () => ({ url: '/api/admin/videos' }),
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'DELETE',
    route: '/api/admin/videos/{id}',
    request: async () => ({ url: `/api/admin/videos/${await freshVideo()}` }),
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'GET',
    route: '/api/keyframes/{file}',
    request: () => ({ url: `/api/keyframes/${s.videoA}.txt` }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/keyframes/{subfolder}/{image}',
    request: () => ({ url: '/api/keyframes/frames-a/1.5.png' }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/predictions/{videoId}',
    request: () => ({ url: `/api/predictions/${s.videoA}` }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/floorplan-configs/{videoId}',
    request: () => ({ url: `/api/floorplan-configs/${s.videoA}` }),
    ok: 200,
    allowed: EVERYONE,
    hidden: ['lcmanager2', 'operator2'],
  },
  {
    method: 'GET',
    route: '/api/floorplans',
    request: () => ({ url: '/api/floorplans' }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'GET',
    route: '/api/floorplans/{file}',
    request: async () => ({ url: `/api/floorplans/${await s.planAFile()}` }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/floorplans',
    request: () => ({ url: '/api/floorplans', multipart: { lineId: s.lineA } }),
    ok: 201,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'DELETE',
    route: '/api/floorplans/{id}',
    request: async () => ({ url: `/api/floorplans/${await freshFloorplanId()}` }),
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'GET',
    route: '/api/floorplan-configs/floorplan/{floorplanId}',
    request: async () => {
      const plans = (await as('admin', 'GET', '/api/floorplans')) as {
        _id: string;
        lineID: string;
      }[];
      return {
        url: `/api/floorplan-configs/floorplan/${plans.find((p) => p.lineID === s.lineA)?._id}`,
      };
    },
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'GET',
    route: '/api/floorplan-configs/line-clearance/{lineClearanceId}',
    request: () => ({ url: `/api/floorplan-configs/line-clearance/${s.lineA}` }),
    ok: 200,
    allowed: EVERYONE,
  },
  {
    method: 'POST',
    route: '/api/floorplan-configs',
    request: () => ({
      url: '/api/floorplan-configs',
      payload: {
        lineClearanceId: s.lineA,
        name: 'Line A Floorplan Configuration',
        configuration: {
          displaySize: { width: 800, height: 600 },
          hotZones: [],
          tags: [],
          cameras: [],
          coordinateSystem: {},
        },
      },
    }),
    ok: 200,
    allowed: MANAGE_LINE_A,
  },
  {
    method: 'GET',
    route: '/api/analysis',
    request: () => ({ url: '/api/analysis' }),
    ok: 200,
    allowed: ['admin', 'factory', 'lcmanager', 'lcmanager2', 'operator', 'operator2'],
  },
  {
    method: 'POST',
    route: '/api/analysis/videos/{id}/run',
    request: async () => ({ url: `/api/analysis/videos/${await freshVideo()}/run` }),
    ok: 202,
    allowed: ['admin'],
  },
  {
    method: 'GET',
    route: '/api/service-accounts',
    request: () => ({ url: '/api/service-accounts' }),
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'POST',
    route: '/api/service-accounts',
    request: () => ({ url: '/api/service-accounts', payload: { name: `SLAM ${unique()}` } }),
    ok: 201,
    allowed: ['admin'],
  },
  {
    method: 'DELETE',
    route: '/api/service-accounts/{id}',
    request: async () => {
      const key = await as('admin', 'POST', '/api/service-accounts', { name: 'Revoked' });
      return { url: `/api/service-accounts/${key._id}` };
    },
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'POST',
    route: '/api/ingest/videos',
    request: () => ({
      url: `/api/ingest/videos?lineClearanceId=${s.lineA}`,
      headers: { 'content-type': 'video/mp4' },
      payload: Buffer.from('not analysed in this test'),
    }),
    ok: 201,
    allowed: ['admin'],
  },
  {
    method: 'PUT',
    route: '/api/ingest/videos/{id}/analysis',
    request: async () => ({
      url: `/api/ingest/videos/${await freshVideo()}/analysis`,
      payload: { analysisVersion: 'matrix', keyframes: '0 1 2 0\n' },
    }),
    ok: 200,
    allowed: ['admin'],
  },
  {
    method: 'GET',
    route: '/api/openapi.json',
    request: () => ({ url: '/api/openapi.json' }),
    ok: 200,
    allowed: 'public',
  },
];

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
  const lines = (await as('admin', 'GET', '/api/line-clearances')) as {
    _id: string;
    name: string;
  }[];
  s.lineA = lines.find((l) => l.name === 'Line A')?._id ?? '';
  const all = (await as('admin', 'GET', '/api/videos')) as { _id: string; filename: string }[];
  s.videoA = all.find((v) => v.filename === 'video-a.mp4')?._id ?? '';
  s.planAFile = async () => {
    const plans = (await as('admin', 'GET', '/api/floorplans')) as {
      imagePath: string;
      lineID: string;
    }[];
    return (
      plans
        .find((p) => p.lineID === s.lineA)
        ?.imagePath.split('/')
        .pop() ?? ''
    );
  };
});
afterAll(() => t.close());

const lastAuditId = async () =>
  (await t.services.ctx.db.select({ last: max(auditLog.id) }).from(auditLog))[0]?.last ?? 0;

/** Whether a refusal was written after entry `last` (repeats are counted in memory until a flush). */
async function refusalsAfter(last: number): Promise<boolean> {
  await t.services.ctx.refusals.flush();
  const [row] = await t.services.ctx.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(gt(auditLog.id, last), eq(auditLog.action, 'authorization.denied')));
  return (row?.n ?? 0) > 0;
}

describe('role × route matrix', () => {
  it('covers every route of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${route}`),
    );
    const covered = new Set(matrix.map((row) => `${row.method} ${row.route}`));
    expect(documented.filter((route) => !covered.has(route))).toEqual([]);
    expect(documented.length).toBeGreaterThan(30);
  });

  for (const row of matrix) {
    it(`${row.method} ${row.route}${row.hidden ? ' (other users’ objects)' : ''}`, async () => {
      const results: Record<string, number> = {};
      const expected: Record<string, number> = {};
      const refused: Who[] = [];
      for (const who of ['anon', ...EVERYONE] as Who[]) {
        const req = await row.request(who);
        const last = await lastAuditId();
        results[who] = (await call(who, row.method, req)).statusCode;
        if (await refusalsAfter(last)) refused.push(who);
        if (row.allowed === 'public') expected[who] = row.ok;
        else if (who === 'anon') expected[who] = 401;
        else if (row.hidden?.includes(who)) expected[who] = 404;
        else expected[who] = row.allowed.includes(who) ? row.ok : 403;
      }
      expect(results).toEqual(expected);
      // A failed authorization is in the trail (docs/permissions.md): a 403, and a 404 for another
      // user's object as much as one the caller may not touch; nothing else is a refusal.
      const shouldRefuse = EVERYONE.filter(
        (who) => expected[who] === 403 || row.hidden?.includes(who),
      );
      expect(refused).toEqual(shouldRefuse);
    });
  }
});
