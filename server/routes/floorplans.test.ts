import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../scripts/lib/png.ts';
import { changes } from '../schemas/audit-changes.ts';
import type { AuditEntry } from '../schemas/audit-log.ts';
import { build, type TestApp } from '../test/build.ts';
import { loadFixture, PNG } from '../test/demo-fixture.ts';
import { multipartBody } from '../test/multipart.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;
let lineA: string;
let lineB: string;

beforeAll(async () => {
  t = await build({ MAX_UPLOAD_BYTES: '4096' });
  f = await loadFixture(t);
  const lines = (await t.app.inject({ url: '/api/line-clearances', headers: f.auth.admin })).json();
  lineA = lines.find((l: { name: string }) => l.name === 'Line A')._id;
  lineB = lines.find((l: { name: string }) => l.name === 'Line B')._id;
});
afterAll(() => t.close());

/** A GIF's header (257 × 257), filler standing for its blocks, and its trailer. */
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20, 1), Buffer.from([0x3b])]);
/** SOI, a 16-byte APP0 segment, a baseline frame header (640 × 480), a scan, then EOI. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.alloc(14, 2),
  Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]),
  Buffer.alloc(9, 1),
  Buffer.from([0xff, 0xda, 0x00, 0x08]),
  Buffer.alloc(6, 3),
  Buffer.from([0x12, 0x34, 0xff, 0xd9]),
]);

const upload = (
  auth: { authorization: string },
  fields: Record<string, string>,
  image?: { bytes: Buffer; name: string },
) => {
  const body = multipartBody(
    fields,
    image && { field: 'image', filename: image.name, contentType: 'image/png', bytes: image.bytes },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/floorplans',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
};

describe('floor plans', () => {
  it('uploads (GIF recognised by its bytes), serves it by file name, lists it', async () => {
    const res = await upload(
      f.auth.lcmanager2,
      { name: 'Floorplan', lineID: lineB },
      { bytes: GIF, name: 'x.png' },
    );
    expect(res.statusCode).toBe(201);
    const plan = res.json();
    expect(plan).toMatchObject({ name: 'Floorplan', lineID: lineB });
    expect(plan.imagePath).toMatch(/^\/api\/floorplans\/[0-9a-f]{24}\.gif$/);
    const image = await t.app.inject({ url: plan.imagePath, headers: f.auth.operator });
    expect(image.headers['content-type']).toBe('image/gif');
    expect(image.rawPayload.equals(GIF)).toBe(true);
    // The trail names the image by its SHA-256, as a signed report does.
    const entries = await t.services.ctx.db.query.auditLog.findMany();
    const created = entries.find((r) => r.entity === 'floorplan' && r.entityId === plan._id);
    expect(created?.newValue).toMatchObject({
      sha256: createHash('sha256').update(GIF).digest('hex'),
    });
    const list = await t.app.inject({ url: '/api/floorplans', headers: f.auth.audit });
    expect(
      list
        .json()
        .map((p: { lineID: string }) => p.lineID)
        .sort(),
    ).toEqual([lineA, lineB].sort());
  });

  it('a second upload for a line replaces the first (one floor plan per line)', async () => {
    const before = (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin })).json();
    const old = before.find((p: { lineID: string }) => p.lineID === lineA);
    const res = await upload(
      f.auth.admin,
      { name: 'Floorplan', lineID: lineA },
      { bytes: JPEG, name: 'a.jpg' },
    );
    expect(res.statusCode).toBe(201);
    const after = (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin })).json();
    expect(after.filter((p: { lineID: string }) => p.lineID === lineA)).toEqual([res.json()]);
    expect((await t.app.inject({ url: old.imagePath, headers: f.auth.admin })).statusCode).toBe(
      404,
    );
    const config = await t.app.inject({
      url: `/api/floorplan-configs/floorplan/${res.json()._id}`,
      headers: f.auth.admin,
    });
    expect(config.statusCode).toBe(200);
    expect(config.json().floorplanId).toBe(res.json()._id);
    // The configuration names the new image, which is served: the old one is gone.
    expect(config.json().configuration.floorplanImage).toBe(res.json().imagePath);
    const image = await t.app.inject({ url: res.json().imagePath, headers: f.auth.admin });
    expect(image.statusCode).toBe(200);
  });

  it('rejects what is not an image, missing fields, oversize files, others’ lines', async () => {
    const text = await upload(
      f.auth.admin,
      { lineID: lineA },
      { bytes: Buffer.from('hello'), name: 'x.png' },
    );
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe('image must be a PNG, JPEG or GIF file');
    // Files that only start like images: a bare PNG signature, a JPEG with no frame header.
    const bare = await upload(
      f.auth.admin,
      { lineID: lineA },
      { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), name: 'x.png' },
    );
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toBe('image is not a readable PNG file: its header gives no size');
    const headless = await upload(
      f.auth.admin,
      { lineID: lineA },
      { bytes: JPEG.subarray(0, 22), name: 'x.jpg' },
    );
    expect(headless.json().message).toBe(
      'image is not a readable JPEG file: its header gives no size',
    );
    expect((await upload(f.auth.admin, { lineID: lineA })).json().message).toBe(
      'image is required',
    );
    expect((await upload(f.auth.admin, {}, { bytes: PNG, name: 'a.png' })).json().message).toBe(
      'lineID is required',
    );
    const nul = await upload(
      f.auth.admin,
      { name: 'Plan\u0000B', lineID: lineB },
      { bytes: PNG, name: 'a.png' },
    );
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe('body.name must not contain the NUL character (U+0000)');
    const reversed = await upload(
      f.auth.admin,
      { name: 'Plan \u2067B', lineID: lineB },
      { bytes: PNG, name: 'a.png' },
    );
    expect(reversed.json().message).toBe(
      'body.name contains an invisible direction control (U+2067); type the text without it',
    );
    const big = await upload(
      f.auth.admin,
      { lineID: lineA },
      { bytes: Buffer.concat([PNG, Buffer.alloc(5000)]), name: 'a.png' },
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('image is larger than the 4096 bytes a floor plan may have');
    expect(
      (await upload(f.auth.lcmanager2, { lineID: lineA }, { bytes: PNG, name: 'a.png' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await upload(f.auth.operator, { lineID: lineA }, { bytes: PNG, name: 'a.png' })).statusCode,
    ).toBe(403);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/floorplans',
      headers: f.auth.admin,
      payload: { lineID: lineA },
    });
    expect(json.statusCode).toBe(400);
  });

  it('refuses an image cut short, damaged, too small or sent twice, keeping the line’s plan', async () => {
    const planOf = async (lineId: string) =>
      (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin }))
        .json()
        .find((plan: { lineID: string }) => plan.lineID === lineId);
    expect(
      (await upload(f.auth.admin, { lineID: lineB }, { bytes: PNG, name: 'a.png' })).statusCode,
    ).toBe(201);
    const kept = await planOf(lineB);
    const refusals: [Buffer, string, string][] = [
      [
        PNG.subarray(0, PNG.length - 20),
        'a.png',
        'image is not a complete PNG file: it is cut short or damaged',
      ],
      [
        Buffer.concat([PNG.subarray(0, 40), Buffer.from([0]), PNG.subarray(41)]),
        'a.png',
        'image is not a complete PNG file: it is cut short or damaged',
      ],
      [
        JPEG.subarray(0, JPEG.length - 2),
        'a.jpg',
        'image is not a complete JPEG file: it is cut short or damaged',
      ],
      [
        GIF.subarray(0, GIF.length - 1),
        'a.gif',
        'image is not a complete GIF file: it is cut short or damaged',
      ],
      [
        Buffer.from(encodePng({ width: 1, height: 1, data: new Uint8Array(3) })),
        'a.png',
        'image must be 32 to 16384 px on each side (this one is 1 × 1)',
      ],
    ];
    for (const [bytes, name, message] of refusals) {
      const res = await upload(f.auth.admin, { lineID: lineB }, { bytes, name });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const twice = multipartBody(
      { lineID: lineB },
      { field: 'image', filename: 'a.png', contentType: 'image/png', bytes: PNG },
    );
    const second = Buffer.from(
      `--${'----lc-test-boundary'}\r\nContent-Disposition: form-data; name="image"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const payload = Buffer.concat([
      twice.payload.subarray(0, twice.payload.length - '------lc-test-boundary--\r\n'.length),
      second,
      PNG,
      Buffer.from('\r\n------lc-test-boundary--\r\n'),
    ]);
    const doubled = await t.app.inject({
      method: 'POST',
      url: '/api/floorplans',
      headers: { ...f.auth.admin, ...twice.headers },
      payload,
    });
    expect(doubled.json()).toEqual({ message: 'image: send one image file, not several' });
    expect(await planOf(lineB)).toEqual(kept);
  });

  it('deletes (managers of the line only) and the image goes with it', async () => {
    const plan = (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin }))
      .json()
      .find((p: { lineID: string }) => p.lineID === lineB);
    const del = (auth: { authorization: string }, reason?: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/floorplans/${plan._id}`,
        headers: auth,
        ...(reason === undefined ? {} : { payload: { reason } }),
      });
    expect((await del(f.auth.lcmanager)).statusCode).toBe(403);
    // A reason that says nothing deletes nothing (EU GMP Annex 11 §10: docs/audit-trail.md).
    const refused = await del(f.auth.lcmanager2, 'old');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'body.reason must say why the floor plan is deleted (at least 3 different words)',
    );
    expect((await del(f.auth.lcmanager2, 'The hall was rebuilt last week')).statusCode).toBe(200);
    const [entry] = await trailOf('floorplan', plan._id);
    expect(entry).toMatchObject({ action: 'delete', reason: 'The hall was rebuilt last week' });
    expect((await t.app.inject({ url: plan.imagePath, headers: f.auth.admin })).statusCode).toBe(
      404,
    );
    expect((await del(f.auth.admin)).statusCode).toBe(404);
  });
});

/** A record's trail entries as /audit reads them, newest first. */
const trailOf = async (entity: string, id: string): Promise<AuditEntry[]> =>
  (
    await t.app.inject({
      url: `/api/audit-log?entity=${entity}&entityId=${id}`,
      headers: f.auth.audit,
    })
  ).json();

describe('floor-plan configurations', () => {
  const configuration = {
    displaySize: { width: 800, height: 600 },
    hotZones: [],
    tags: [
      { x: 1, y: 2, name: 'Tag 1', qrCode: 'Q', id: 't1', status: 'scanned', clientOnly: 'x' },
    ],
    cameras: [],
    coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
  };
  const save = (auth: { authorization: string }, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/floorplan-configs', headers: auth, payload: body });

  it('saves (201), replaces (200, audited) and reads by line clearance', async () => {
    const first = await save(f.auth.lcmanager2, {
      lineClearanceId: lineB,
      name: 'Line B Floorplan Configuration',
      configuration,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().configuration.tags[0]).toEqual({
      x: 1,
      y: 2,
      name: 'Tag 1',
      qrCode: 'Q',
      id: 't1',
      status: 'scanned',
    });
    const second = await save(f.auth.admin, {
      lineClearanceId: lineB,
      name: 'Line B Floorplan Configuration',
      configuration: { ...configuration, tags: [] },
    });
    expect(second.statusCode).toBe(200);
    const read = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${lineB}`,
      headers: f.auth.audit,
    });
    expect(read.json()).toMatchObject({ _id: first.json()._id, configuration: { tags: [] } });
    const log = await t.services.ctx.db.query.auditLog.findMany();
    const entry = log.find((r) => r.entity === 'floorplan-config' && r.action === 'update');
    expect(entry?.oldValue).toMatchObject({ configuration: { tags: [{ name: 'Tag 1' }] } });
  });

  it('keeps the reason for replacing a saved configuration; one that says nothing saves nothing', async () => {
    const body = { lineClearanceId: lineB, name: 'Line B Floorplan Configuration', configuration };
    const opened = (await save(f.auth.admin, body)).json();
    const before = await trailOf('floorplan-config', opened._id);
    const moved = { ...configuration, tags: [{ ...configuration.tags[0], x: 40 }] };
    const refused = await save(f.auth.admin, { ...body, configuration: moved, reason: 'moved' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'body.reason must say why the floor-plan configuration is changed (at least 3 different words)',
    );
    expect(await trailOf('floorplan-config', opened._id)).toEqual(before);
    const reason = 'Tag moved to the new hopper';
    const saved = await save(f.auth.admin, {
      ...body,
      configuration: moved,
      version: opened.version,
      reason: ` ${reason} `,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).not.toHaveProperty('reason');
    const [entry] = await trailOf('floorplan-config', opened._id);
    expect(entry).toMatchObject({ action: 'update', reason });
    // The reason is the change's, not a changed field of the configuration.
    const lines = changes(entry?.oldValue, entry?.newValue).map((change) => change.line);
    expect(lines).toContain(`version: ${opened.version} → ${saved.json().version}`);
    // The moved tag, item by item (matched by its id), not the whole list twice.
    expect(lines).toContain('configuration.tags[0] (Tag 1).x: 1 → 40');
    expect(lines.filter((line) => line.includes('reason'))).toEqual([]);
  });

  it('stores only the fields it declares; a body nested too deep is a 400, not a stack overflow', async () => {
    // Written as text: JSON.stringify of it would overflow this test's stack too.
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const body = { lineClearanceId: lineB, name: 'Line B Floorplan Configuration' };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/floorplan-configs',
      headers: { ...f.auth.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...body, configuration: { ...configuration, deep: 0 } }).replace(
        '"deep":0',
        `"deep":${deep}`,
      ),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(
      /^body\.configuration\.deep(\.a)+ is nested more than 32 levels deep$/,
    );
    const saved = await save(f.auth.admin, {
      ...body,
      configuration: { ...configuration, extra: { a: 1 } },
      id: 'chosen',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()._id).not.toBe('chosen');
    expect(saved.json().configuration).not.toHaveProperty('extra');
  });

  it('version 0 (none saved when the wizard opened) creates, and is refused once one is saved', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: f.auth.admin,
      payload: { name: 'First save line' },
    });
    // A code of its own: Line B's 'Q' is another line's checkpoint to this line.
    const own = { ...configuration, tags: [{ ...configuration.tags[0], qrCode: 'FIRST-1' }] };
    const body = { lineClearanceId: created.json()._id, name: 'First save', configuration: own };
    const first = await save(f.auth.admin, { ...body, version: 0 });
    expect(first.statusCode, first.body).toBe(201);
    const second = await save(f.auth.admin, {
      ...body,
      version: 0,
      configuration: { ...configuration, tags: [] },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(
      /^First save was changed by you on .+ since you opened it\./,
    );
    const read = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${body.lineClearanceId}`,
      headers: f.auth.admin,
    });
    expect(read.json().configuration.tags).toHaveLength(1);
  });

  it('refuses blank names (the report would read "Tag not scanned: ")', async () => {
    const zone = { x: 1, y: 1, width: 50, height: 50 };
    const cases: [object, string][] = [
      [{ name: ' ' }, 'body.name'],
      [{ configuration: { ...configuration, hotZones: [{ ...zone, name: '' }] } }, 'hotZones.0'],
      [{ configuration: { ...configuration, hotZones: [{ ...zone, name: '   ' }] } }, 'hotZones.0'],
      [{ configuration: { ...configuration, tags: [{ x: 1, y: 1, name: '' }] } }, 'tags.0'],
      [{ configuration: { ...configuration, tags: [{ x: 1, y: 1, name: '\u200b' }] } }, 'tags.0'],
      [
        { configuration: { ...configuration, cameras: [{ x: 1, y: 1, name: '\u3164' }] } },
        'cameras.0',
      ],
    ];
    for (const [change, field] of cases) {
      const body = {
        lineClearanceId: lineB,
        name: 'Line B Floorplan Configuration',
        configuration,
      };
      const res = await save(f.auth.admin, { ...body, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      const path = field === 'body.name' ? field : `body.configuration.${field}.name`;
      // An empty name fails its minLength first, in the validator's words.
      expect([
        `${path} must not be blank`,
        `${path} must not have fewer than 1 characters`,
      ]).toContain(res.json().message);
    }
  });

  it('refuses two tags with one QR code: a scan would tick only one of them', async () => {
    const tag = { x: 1, y: 1, qrCode: 'PL3-01' };
    const res = await save(f.auth.admin, {
      lineClearanceId: lineB,
      name: 'Line B Floorplan Configuration',
      configuration: {
        ...configuration,
        tags: [
          { ...tag, name: 'Hopper' },
          { ...tag, name: 'No code', qrCode: ' ' },
          { ...tag, name: 'Chute', qrCode: ' PL3-01 ' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "body.configuration.tags.2.qrCode 'PL3-01' is also the code of tag 'Hopper': each tag needs its own code, or a scan ticks only one of them",
    );
  });

  it('400 names the field; 403 for another manager’s line; 404 when none saved', async () => {
    const bad = await save(f.auth.admin, {
      lineClearanceId: lineB,
      name: 'x',
      configuration: { ...configuration, coordinateSystem: { pixelsPerMeter: 0 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.configuration\.coordinateSystem\.pixelsPerMeter /);
    const missing = await save(f.auth.admin, { lineClearanceId: lineB, name: 'x' });
    expect(missing.json().message).toBe('body.configuration is required');
    expect(
      (await save(f.auth.lcmanager, { lineClearanceId: lineB, name: 'x', configuration }))
        .statusCode,
    ).toBe(403);
    expect(
      (await save(f.auth.audit, { lineClearanceId: lineB, name: 'x', configuration })).statusCode,
    ).toBe(403);
    const lines = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: f.auth.admin,
      payload: { name: 'Empty line' },
    });
    const none = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${lines.json()._id}`,
      headers: f.auth.admin,
    });
    expect(none.statusCode).toBe(404);
  });
});
