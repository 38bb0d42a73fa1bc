// Shared set-up of the capture tests: two lines (one per operator), a floor-plan configuration
// with tags on the first, and a submitted inspection whose video awaits its file.
import { randomBytes, randomUUID } from 'node:crypto';
import { floorplanConfigs, lineClearances } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { TestApp } from './build.ts';
import type { RoleUsers, TestUser } from './fixtures.ts';

export interface CaptureLines {
  lineA: string;
  lineB: string;
  maintenance: string;
}

export async function createCaptureLines(t: TestApp, u: RoleUsers): Promise<CaptureLines> {
  const ids = { lineA: newId(), lineB: newId(), maintenance: newId() };
  const { db } = t.services.ctx;
  await db.insert(lineClearances).values([
    { id: ids.lineA, name: 'Line A', managerId: u.lc.id, assignedOperators: [u.operator.id] },
    { id: ids.lineB, name: 'Line B', managerId: u.lc2.id, assignedOperators: [u.operator2.id] },
    {
      id: ids.maintenance,
      name: 'Line M',
      status: 'maintenance',
      assignedOperators: [u.operator.id],
    },
  ]);
  await db.insert(floorplanConfigs).values({
    id: newId(),
    lineClearanceId: ids.lineA,
    name: 'Line A Floorplan Configuration',
    configuration: {
      floorplanImage: 'x.png',
      displaySize: { width: 800, height: 600 },
      hotZones: [{ x: 1, y: 1, width: 50, height: 50, name: 'Filler' }],
      tags: [
        { x: 10, y: 10, name: 'Gate', qrCode: 'A-TAG-1' },
        { x: 20, y: 20, name: 'Hopper', qrCode: 'A-TAG-2' },
        { x: 30, y: 30, name: 'Unlabelled' },
      ],
      cameras: [],
      coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
    },
  });
  return ids;
}

export const submission = (lineClearanceId: string, overrides: Record<string, unknown> = {}) => ({
  clientRef: randomUUID(),
  lineClearanceId,
  productLeaving: 'Aspirin 500',
  batchLeaving: 'B-1001',
  productComing: 'Ibuprofen 200',
  batchComing: 'B-2002',
  operatorNotes: 'Walked the whole line',
  startTime: '2026-11-20T08:00:00.000Z',
  endTime: '2026-11-20T08:05:00.000Z',
  video: { container: 'webm', duration: 300 },
  ...overrides,
});

export async function submit(
  t: TestApp,
  user: TestUser,
  lineId: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/inspections',
    headers: user.auth,
    payload: submission(lineId, overrides),
  });
  if (res.statusCode !== 201) throw new Error(`submit: ${res.statusCode} ${res.body}`);
  return res.json() as { inspection: { _id: string }; videoId: string; videoFilename: string };
}

/** Bytes that start like a WebM file (EBML magic), then random. */
export function webmBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.writeUInt32BE(0x1a45dfa3, 0);
  return bytes;
}
