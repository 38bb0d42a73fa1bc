// A tag's QR code is matched at capture by the trimmed code alone (services/capture.ts), so a save
// may not give a tag a code that is already another line's checkpoint or a device's serial.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorplanConfigs } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { build, type TestApp } from '../test/build.ts';
import { loadFixture } from '../test/demo-fixture.ts';

let t: TestApp;
let f: Awaited<ReturnType<typeof loadFixture>>;
let lineA: string;
let lineB: string;

beforeAll(async () => {
  t = await build();
  f = await loadFixture(t);
  const lines = (await t.app.inject({ url: '/api/line-clearances', headers: f.auth.admin })).json();
  lineA = lines.find((l: { name: string }) => l.name === 'Line A')._id;
  lineB = lines.find((l: { name: string }) => l.name === 'Line B')._id;
});
afterAll(() => t.close());

type Auth = { authorization: string };
type Tag = { name: string; qrCode?: string };

/** A configuration with these tags (the fixture's Line A has 'Tag 1', code 'TAG-1'). */
const configuration = (tags: Tag[]) => ({
  displaySize: { width: 800, height: 600 },
  hotZones: [],
  tags: tags.map((tag, i) => ({ x: 10 + 40 * i, y: 20, ...tag })),
  cameras: [],
  coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
});

const save = (auth: Auth, lineClearanceId: string, tags: Tag[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/floorplan-configs',
    headers: auth,
    payload: { lineClearanceId, name: 'Configuration', configuration: configuration(tags) },
  });

const savedTags = async (lineId: string) => {
  const res = await t.app.inject({
    url: `/api/floorplan-configs/line-clearance/${lineId}`,
    headers: f.auth.admin,
  });
  return res.statusCode === 404 ? null : res.json().configuration.tags;
};

const newLine = async (name: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: f.auth.admin,
      payload: { name },
    })
  ).json()._id as string;

const LINE_A_TAG =
  "is already a checkpoint of another line (tag 'Tag 1' of Line A): scanning that label would tick this tag, so give this tag its own code";

describe('a tag code of another line or a device', () => {
  it('refuses another line’s checkpoint code, naming the field; nothing is saved', async () => {
    const res = await save(f.auth.admin, lineB, [
      { name: 'Hopper', qrCode: 'B-HOPPER' },
      { name: 'Chute', qrCode: 'TAG-1' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `body.configuration.tags.1.qrCode 'TAG-1' of tag 'Chute' ${LINE_A_TAG}`,
    );
    expect(await savedTags(lineB)).toBeNull();
  });

  it('compares trimmed codes, as a scan is matched', async () => {
    const res = await save(f.auth.admin, lineB, [{ name: 'Chute', qrCode: ' \tTAG-1  ' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `body.configuration.tags.0.qrCode 'TAG-1' of tag 'Chute' ${LINE_A_TAG}`,
    );
  });

  it('refuses a code or a tag name that hides a character, naming it', async () => {
    const oneLine =
      'must be one line without control or invisible characters (line breaks, tabs, zero-width spaces, direction marks)';
    const code = await save(f.auth.admin, lineB, [{ name: 'Chute', qrCode: 'TAG\u200b-9' }]);
    expect(code.json()).toEqual({ message: `body.configuration.tags.0.qrCode ${oneLine}` });
    const name = await save(f.auth.admin, lineB, [{ name: 'Chute\nB', qrCode: 'TAG-9' }]);
    expect(name.json()).toEqual({ message: `body.configuration.tags.0.name ${oneLine}` });
  });

  it('tells an LC manager the other line as it tells an admin: every user reads every line', async () => {
    const res = await save(f.auth.lcmanager2, lineB, [{ name: 'Chute', qrCode: 'TAG-1' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `body.configuration.tags.0.qrCode 'TAG-1' of tag 'Chute' ${LINE_A_TAG}`,
    );
    // Naming Line A leaks nothing: its manager-to-be may read it and its codes already
    // (docs/permissions.md, "Read scope"). Should that change, so must the message.
    const readable = await t.app.inject({
      url: `/api/floorplan-configs/line-clearance/${lineA}`,
      headers: f.auth.lcmanager2,
    });
    expect(readable.statusCode).toBe(200);
    expect(readable.json().configuration.tags[0].qrCode).toBe('TAG-1');
  });

  it('refuses a registered device’s serial, as POST /api/devices refuses a checkpoint’s code', async () => {
    const res = await save(f.auth.lcmanager2, lineB, [{ name: 'Chute', qrCode: ' DEMO-CAM-1' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "body.configuration.tags.0.qrCode 'DEMO-CAM-1' of tag 'Chute' is the serial of the registered device 'Camera 1': scanning that label would tick this tag, so give this tag its own code",
    );
  });

  it('refuses a device label that is a checkpoint’s code as a scan reads it, even at once', async () => {
    const register = (qrCode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: f.auth.operator,
        payload: { qrCode },
      });
    // A code saved before with a tab around it is read by a scan without it (SQL trim() kept it).
    const line = await newLine('Line with a padded code');
    await t.services.ctx.db.insert(floorplanConfigs).values({
      id: newId(),
      lineClearanceId: line,
      name: 'Configuration',
      configuration: configuration([{ name: 'Padded', qrCode: 'PADDED-1\t' }]),
    });
    const padded = await register('PADDED-1');
    expect(padded.statusCode).toBe(400);
    expect(padded.json().message).toBe(
      "This QR code is the checkpoint 'Padded' of Line with a padded code, not a device label: scan the label on the phone or tablet",
    );
    for (const round of [1, 2, 3]) {
      const code = `CLAIM-${round}`;
      const [device, tag] = await Promise.all([
        register(code),
        save(f.auth.admin, await newLine(`Claim ${round}`), [{ name: 'Tag 1', qrCode: code }]),
      ]);
      expect([device.statusCode, tag.statusCode].sort(), `round ${round}`).toEqual([201, 400]);
    }
  });

  it('saves a clash stored before the rule unchanged; refuses only a code new to the line', async () => {
    const line = await newLine('Line stored before the rule');
    // Written as a save before this rule could have: Line A's code and the device's serial.
    await t.services.ctx.db.insert(floorplanConfigs).values({
      id: newId(),
      lineClearanceId: line,
      name: 'Configuration',
      configuration: configuration([
        { name: 'Old copy', qrCode: 'TAG-1 ' },
        { name: 'Old device', qrCode: 'DEMO-CAM-1' },
      ]),
    });
    const kept = await save(f.auth.admin, line, [
      { name: 'Renamed copy', qrCode: 'TAG-1' },
      { name: 'Own', qrCode: 'OWN-1' },
      { name: 'Old device', qrCode: 'DEMO-CAM-1' },
    ]);
    expect(kept.statusCode, kept.body).toBe(200);
    // Line A, on the other side of the same clash, saves unchanged too.
    const other = await save(f.auth.lcmanager, lineA, [{ name: 'Tag 1', qrCode: 'TAG-1' }]);
    expect(other.statusCode, other.body).toBe(200);
    // A code added beside the old clash is refused, and the error names only the new one.
    expect(
      (await save(f.auth.lcmanager2, lineB, [{ name: 'Chute', qrCode: 'B-1' }])).statusCode,
    ).toBe(201);
    const added = await save(f.auth.admin, line, [
      { name: 'Renamed copy', qrCode: 'TAG-1' },
      { name: 'Own', qrCode: 'OWN-1' },
      { name: 'Old device', qrCode: 'DEMO-CAM-1' },
      { name: 'Copied', qrCode: 'B-1' },
    ]);
    expect(added.statusCode).toBe(400);
    expect(added.json().message).toBe(
      "body.configuration.tags.3.qrCode 'B-1' of tag 'Copied' is already a checkpoint of another line (tag 'Chute' of Line B): scanning that label would tick this tag, so give this tag its own code",
    );
    // Dropped from the line, the old clash is no longer the line's: added back, it is refused.
    expect((await save(f.auth.admin, line, [{ name: 'Own', qrCode: 'OWN-1' }])).statusCode).toBe(
      200,
    );
    const back = await save(f.auth.admin, line, [
      { name: 'Own', qrCode: 'OWN-1' },
      { name: 'Copy again', qrCode: 'TAG-1' },
    ]);
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe(
      `body.configuration.tags.1.qrCode 'TAG-1' of tag 'Copy again' ${LINE_A_TAG}`,
    );
  });

  it('two lines saving one new code at once: exactly one of them has it', async () => {
    for (const round of [1, 2, 3, 4, 5]) {
      const lines = [await newLine(`Race ${round} left`), await newLine(`Race ${round} right`)];
      const code = `RACE-${round}`;
      const answers = await Promise.all(
        lines.map((line) => save(f.auth.admin, line, [{ name: 'Tag 1', qrCode: code }])),
      );
      expect(answers.map((res) => res.statusCode).sort(), `round ${round}`).toEqual([201, 400]);
      const holders = [];
      for (const line of lines) if ((await savedTags(line)) !== null) holders.push(line);
      expect(holders).toHaveLength(1);
    }
  });
});
