// Fixtures for the path player's browser tests: a small floor plan whose numbers are easy to follow,
// and a stand-in for the three API calls the player makes (two from the page, one from the worker).
//
// Image 1400×1000 → display scale 0.5 → a 700×500 canvas. The calibrator's layout is 700×500 too,
// so layout pixels (tags, zones, cameras) are display pixels, and image pixels are twice them.
// Calibration: x_img = 100 + 50·x, y_img = 100 + 50·y (3 pairs: affine), so display = 50 + 25·x.

import { expect, vi } from 'vitest';
import { unexpectedRequest } from '../../../../tests/web/render.tsx';
import {
  serveToWorkers,
  type WorkerAnswer,
  type WorkerRoutes,
} from '../../../../tests/web/worker-fetch.ts';
import { accessTokenKey } from '../../../stores/session.ts';
import type { FloorplanConfiguration, Video } from '../../../types/api.ts';

export const VIDEO_ID = '65a1b2c3d4e5f60718293a4b';

export const video: Video = {
  _id: VIDEO_ID,
  id: VIDEO_ID,
  filename: 'lc1-fixture.mp4',
  timestamp: '2026-11-03T08:15:00.000Z',
  userId: null,
  operatorId: null,
  deviceId: null,
  lineClearanceId: null,
  path: { video: '/api/videos/lc1-fixture.mp4', keyframesData: `/api/keyframes/${VIDEO_ID}.txt` },
  status: 'completed',
  size: 1000,
  fileSize: 1000,
  duration: 10,
  metadata: { device: null, location: null, duration: 10 },
  relatedData: { predictions: 0, reports: 0, floorplanConfigs: 1, floorplans: 1 },
};

export const IMAGE_SIZE = { width: 1400, height: 1000 };

export const configuration: FloorplanConfiguration = {
  floorplanImage: '/api/floorplans/fixture-plan.png',
  displaySize: { width: 700, height: 500 },
  hotZones: [{ x: 20, y: 300, width: 120, height: 80, name: 'Sealer', color: '#e6194b' }],
  tags: [
    { x: 100, y: 50, name: 'Tag on the path', qrCode: 'FX-TAG-01', color: '#3cb44b' },
    { x: 600, y: 400, name: 'Tag far away', qrCode: 'FX-TAG-02', color: '#4363d8' },
  ],
  cameras: [{ x: 650, y: 50, name: 'Dome', type: 'dome', color: '#000075' }],
  coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
  slamPoints: [
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  floorplanPoints: [
    [100, 100],
    [150, 100],
    [100, 150],
  ],
  forceAffine: false,
  yAxisFlip: false,
};

/**
 * Ten keyframes 2 map units (50 display px) apart along y = 0, one a second: keyframe i has
 * field 1 = 1000 + i, display position (50 + 50·i, 50) and time i; keyframe 3 names 3.000.png.
 */
export const tenKeyframes = Array.from(
  { length: 10 },
  // Keyframe 3 names its image, as real files do for some keyframes (spec §7).
  (_, i) => `${1000 + i} ${2 * i} 0 ${i}${i === 3 ? ' 3.000.png' : ''}`,
)
  .join('\n')
  .concat('\n');

/** Display position of keyframe i of tenKeyframes. */
export const keyframeAt = (i: number) => ({ x: 50 + 50 * i, y: 50 });

/** A PNG of the given size (plain light grey) as bytes. */
export async function pngBytes(width: number, height: number): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D context for the fixture image');
  ctx.fillStyle = '#e2e8f0';
  ctx.fillRect(0, 0, width, height);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Uint8Array(await blob.arrayBuffer());
}

export type FakeAnswer =
  | { status?: number; statusText?: string; json?: unknown; bytes?: Uint8Array | string }
  | 'network-error'
  | 'never';

/** The keyframes file: the path worker downloads it with its own fetch, not the page's. */
const isWorkerRoute = (key: string) => /^GET \/api\/keyframes\/[^/]+\.txt$/.test(key);

/** A keyframes answer as the test server sends it to the worker (text bodies only). */
function workerAnswer(key: string, answer: FakeAnswer): WorkerAnswer {
  if (answer === 'network-error' || answer === 'never') return { kind: answer };
  if (answer.bytes instanceof Uint8Array || answer.json !== undefined) {
    throw new Error(`${key}: a keyframes answer in a test is text`);
  }
  return { status: answer.status, statusText: answer.statusText, body: answer.bytes };
}

/** The page's answer to a stubbed fetch call. */
function pageAnswer(answer: FakeAnswer, signal: AbortSignal | null | undefined): Promise<Response> {
  if (answer === 'network-error') return Promise.reject(new TypeError('Failed to fetch'));
  if (answer === 'never') {
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal?.reason));
    });
  }
  const body =
    answer.json !== undefined
      ? JSON.stringify(answer.json)
      : typeof answer.bytes === 'string'
        ? new TextEncoder().encode(answer.bytes)
        : answer.bytes;
  return Promise.resolve(
    new Response(body as BodyInit | undefined, {
      status: answer.status ?? 200,
      statusText: answer.statusText ?? '',
    }),
  );
}

let serving: { worker: WorkerRoutes; routes: Record<string, FakeAnswer> } | null = null;

/**
 * Answers "GET path" keys: the page's calls through a stubbed fetch, the keyframes file, which the
 * path worker fetches itself, from the test server (tests/web/worker-fetch.ts), for the bearer
 * token stored here as the signed-in user's. Anything unlisted fails the test (the page's at
 * cleanup(), the worker's at stopFakeApi()). 'never' leaves the request pending until it is
 * aborted. `calls` lists the page's and the worker's requests.
 */
export async function fakeApi(routes: Record<string, FakeAnswer>) {
  const pageCalls: string[] = [];
  /** The page's requests with their queries, which the route keys leave out. */
  const pageUrls: string[] = [];
  const entries = Object.entries(routes);
  const worker = await serveToWorkers(
    Object.fromEntries(
      entries.filter(([key]) => isWorkerRoute(key)).map(([key, a]) => [key, workerAnswer(key, a)]),
    ),
  );
  serving = { worker, routes };
  localStorage.setItem(accessTokenKey, worker.token);
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    pageCalls.push(key);
    pageUrls.push(url.pathname + url.search);
    const answer = isWorkerRoute(key) ? undefined : routes[key];
    if (answer === undefined) return unexpectedRequest(key);
    return pageAnswer(answer, init?.signal);
  });
  const calls = async () => [
    ...pageCalls,
    ...(await worker.calls()).map((call) => {
      // Every worker request must carry the signed-in user's token, as the page's would.
      if (call.authorization !== `Bearer ${worker.token}`) {
        throw new Error(`${call.key} was sent without the user's token`);
      }
      return call.key;
    }),
  ];
  return { calls, urls: () => [...pageUrls] };
}

/**
 * Ends fakeApi: the test server's routes, requests still pending there, the stored token. Fails the
 * test (softly, so the rest of afterEach runs) if the worker requested anything the routes do not
 * list: the test server answered it with a 500, which the player shows as a message no test may
 * have looked at.
 */
export async function stopFakeApi(): Promise<void> {
  localStorage.removeItem(accessTokenKey);
  if (!serving) return;
  const { worker, routes } = serving;
  serving = null;
  const calls = await worker.calls();
  await worker.stop();
  expect
    .soft(
      calls.map((call) => call.key).filter((key) => !(key in routes)),
      "the path worker's requests that the test's routes do not list",
    )
    .toEqual([]);
}

/** The routes of a video with the fixture configuration, image and keyframes. */
export async function fixtureRoutes(
  overrides: Record<string, FakeAnswer> = {},
): Promise<Record<string, FakeAnswer>> {
  return {
    [`GET /api/floorplan-configs/${VIDEO_ID}`]: { json: { configuration } },
    'GET /api/floorplans/fixture-plan.png': {
      bytes: await pngBytes(IMAGE_SIZE.width, IMAGE_SIZE.height),
    },
    [`GET /api/keyframes/${VIDEO_ID}.txt`]: { bytes: tenKeyframes },
    ...overrides,
  };
}
