// A tiny demo dataset written to a temporary folder, loaded through the real demo loader; media
// tests and the role matrix run against it. Bytes are small but of the real formats' signatures.
import fs from 'node:fs';
import path from 'node:path';
import { encodePng } from '../../scripts/lib/png.ts';
import type { DemoDataset, DemoRole } from '../demo/dataset-types.ts';
import { DEMO_PASSWORD, loadDemo } from '../demo/load-demo.ts';
import type { TestApp } from './build.ts';

/** A whole 64 × 48 PNG: floor-plan uploads are checked to the last chunk. */
export const PNG = Buffer.from(
  encodePng({ width: 64, height: 48, data: new Uint8Array(64 * 48 * 3).fill(7) }),
);
/** 2000 distinct-ish bytes standing in for an MP4 (range tests compare exact slices). */
export const VIDEO_BYTES = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 31) % 256));

const configuration = {
  floorplanImage: 'floorplans/a.png',
  displaySize: { width: 800, height: 600 },
  hotZones: [
    {
      x: 10,
      y: 10,
      width: 50,
      height: 40,
      name: 'Zone 1',
      description: '',
      color: '#f00',
      importance: 'high' as const,
    },
  ],
  tags: [{ x: 5, y: 6, name: 'Tag 1', qrCode: 'TAG-1', color: '#0f0', description: '' }],
  cameras: [
    { x: 1, y: 2, name: 'Camera 1', type: 'dome' as const, color: '#00f', description: '' },
  ],
  coordinateSystem: {
    useSimpleMapping: true,
    sourceImageWidth: 800,
    sourceImageHeight: 600,
    pixelsPerMeter: 50,
  },
  slamPoints: [
    [0, 0],
    [1, 0],
    [0, 1],
  ] as [number, number][],
  floorplanPoints: [
    [10, 10],
    [60, 10],
    [10, 60],
  ] as [number, number][],
  forceAffine: false,
  yAxisFlip: false,
};

const user = (key: string, role: DemoRole) => ({
  key,
  name: `Demo ${key}`,
  email: `${key}@example.com`,
  roles: [role],
});

export const fixtureDataset: DemoDataset = {
  users: [
    user('admin', 'admin'),
    user('factory', 'factory_manager'),
    user('lcmanager', 'lc_manager'),
    user('lcmanager2', 'lc_manager'),
    user('audit', 'audit'),
    user('operator', 'operator'),
    user('operator2', 'operator'),
  ],
  lineClearances: [
    {
      key: 'line-a',
      name: 'Line A',
      description: 'Blister',
      location: 'Hall 1',
      status: 'active',
      managerKey: 'lcmanager',
      operatorKeys: ['operator'],
    },
    {
      key: 'line-b',
      name: 'Line B',
      description: 'Bottles',
      location: 'Hall 2',
      status: 'active',
      managerKey: 'lcmanager2',
      operatorKeys: ['operator2'],
    },
  ],
  devices: [{ key: 'cam-1', name: 'Camera 1', type: 'camera', status: 'active' }],
  floorplans: [
    {
      key: 'plan-a',
      name: 'Floorplan',
      lineKey: 'line-a',
      file: 'floorplans/a.png',
      width: 800,
      height: 600,
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ],
  floorplanConfigs: [
    {
      lineKey: 'line-a',
      floorplanKey: 'plan-a',
      name: 'Line A Floorplan Configuration',
      configuration,
    },
  ],
  videos: ['a', 'b'].map((k) => ({
    key: `video-${k}`,
    filename: `video-${k}.mp4`,
    lineKey: `line-${k}`,
    userKey: k === 'a' ? 'operator' : 'operator2',
    deviceKey: 'cam-1',
    timestamp: k === 'a' ? '2026-11-03T08:15:00.000Z' : '2026-11-12T06:30:00.000Z',
    status: 'completed' as const,
    duration: 40,
    file: `videos/${k}.mp4`,
    keyframesFile: `keyframes/${k}.txt`,
    keyframeImagesDir: `frames-${k}`,
    analysisVersion: 'fixture-slam/1',
    detector: { name: 'fixture-detector', version: '1', threshold: 0.5 },
    predictions: ['10.png', '1.5.png', '2.25.png'].map((filename) => ({
      filename,
      subfolder: `frames-${k}`,
      class_labels: ['carton'],
      confs: [0.9],
      boxes_normalized: [[0.1, 0.1, 0.2, 0.2]] as [number, number, number, number][],
    })),
  })),
  inspections: ['a', 'b'].map((k) => ({
    key: `insp-${k}`,
    lineKey: `line-${k}`,
    operatorKey: k === 'a' ? 'operator' : 'operator2',
    videoKey: `video-${k}`,
    pendingUpload: null,
    startTime: '2026-11-03T08:15:00.000Z',
    endTime: '2026-11-03T08:15:40.000Z',
    productLeaving: 'Product A',
    batchLeaving: 'A-001',
    productComing: 'Product B',
    batchComing: 'B-001',
    status: 'pending' as const,
    operatorNotes: 'done',
    reviewerKey: null,
    reviewNotes: null,
    captureFile: null,
  })),
};

export const KEYFRAMES_TEXT =
  '0 0.0 0.0 1.5 1.5.png\n1 0.5 0.2 2.25 2.25.png\n2 1.0 0.4 10 10.png\n';

export function writeFixtureFiles(dir: string): void {
  const write = (relative: string, data: Buffer | string) => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), data);
  };
  write('floorplans/a.png', PNG);
  for (const k of ['a', 'b']) {
    write(`videos/${k}.mp4`, VIDEO_BYTES);
    write(`keyframes/${k}.txt`, KEYFRAMES_TEXT);
    for (const frame of ['1.5', '2.25', '10']) write(`frames-${k}/${frame}.png`, PNG);
  }
}

export type DemoKey =
  | 'admin'
  | 'factory'
  | 'lcmanager'
  | 'lcmanager2'
  | 'audit'
  | 'operator'
  | 'operator2';

/** Loads the fixture and logs every account in; answers auth headers by user key. */
export async function loadFixture(t: TestApp) {
  const dir = path.join(t.dataDir, 'fixture');
  writeFixtureFiles(dir);
  await loadDemo(t.services.ctx, fixtureDataset, dir);
  const auth = {} as Record<DemoKey, { authorization: string }>;
  const ids = {} as Record<DemoKey, string>;
  for (const u of fixtureDataset.users) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: u.email, password: DEMO_PASSWORD },
    });
    const { token } = res.json() as { token: string };
    auth[u.key as DemoKey] = { authorization: `Bearer ${token}` };
    const me = await t.app.inject({ url: '/api/me', headers: auth[u.key as DemoKey] });
    ids[u.key as DemoKey] = (me.json() as { id: string }).id;
  }
  return { auth, ids };
}
