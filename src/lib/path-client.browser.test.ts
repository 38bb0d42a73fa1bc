// The path player's calls through the real worker: its own download of a keyframes file, a load
// painting into the page's canvas, frames, hit tests, and terminate ending calls still waiting.
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import {
  serveToWorkers,
  type WorkerAnswer,
  type WorkerRoutes,
} from '../../tests/web/worker-fetch.ts';
import {
  displayGeometry,
  downloadKeyframes,
  hitTestPath,
  loadedKeyframeImageNames,
  loadPathView,
  pathFrame,
  startPathWorker,
  terminatePathWorker,
} from './path-client.ts';

const served: WorkerRoutes[] = [];
afterEach(async () => {
  for (const routes of served.splice(0)) await routes.stop();
});

/** The worker's download of one served answer at /api/keyframes/test.txt, as the server saw it. */
async function downloadAnswer(route: WorkerAnswer) {
  const routes = await serveToWorkers({ 'GET /api/keyframes/test.txt': route });
  served.push(routes);
  const url = new URL('/api/keyframes/test.txt', window.location.href).href;
  const answer = await downloadKeyframes(url, { Authorization: `Bearer ${routes.token}` });
  return { answer, calls: await routes.calls(), token: routes.token };
}

/** Has the worker download a keyframes text; the download id for loadPathView. */
async function download(text: string): Promise<number> {
  const { answer } = await downloadAnswer({ body: text });
  if (!answer.ok) throw new Error(`the test download answered ${answer.status}`);
  return answer.value.download;
}
const BLUE = [37, 99, 235, 255];

function pathCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [width, height];
  return canvas;
}

/** RGBA of a device pixel of a canvas the worker paints (read through a copy of what it shows). */
function devicePixel(canvas: HTMLCanvasElement, x: number, y: number): number[] {
  const probe = document.createElement('canvas');
  [probe.width, probe.height] = [canvas.width, canvas.height];
  const ctx = probe.getContext('2d');
  if (!ctx) throw new Error('no 2D context');
  ctx.drawImage(canvas, 0, 0);
  return Array.from(ctx.getImageData(x, y, 1, 1).data);
}

afterAll(() => terminatePathWorker());

// No calibration, 700×650 image: simple mapping, display px = map units × 50, scale 1.
const image = { width: 700, height: 650 };
const text = () => '10 1 1 0\n11 2 1 1\n12 3 1 2\n13 4 1 3\n';

describe('path client: path player calls', () => {
  test('loadPathView paints the first frame into the transferred canvas, pathFrame the next', async () => {
    startPathWorker();
    const canvas = pathCanvas(1400, 1300);
    const { path, frame } = await loadPathView(
      { download: await download(text()), calibration: null, image, tags: [] },
      { pixelRatio: 2 },
      0,
      canvas.transferControlToOffscreen(),
    );
    expect(Array.from(path.kept.keyframe)).toEqual([10, 11, 12, 13]);
    expect(frame.answer).toMatchObject({ drawCount: 1, nearest: 0, nearestKeyframe: 10 });
    // Display (50, 50) is device (100, 100): keyframe 10 is drawn, 11 at (200, 100) not yet.
    await expect.poll(() => devicePixel(canvas, 100, 100)).toEqual(BLUE);
    expect(devicePixel(canvas, 200, 100)[3]).toBe(0);

    expect((await pathFrame(1.2)).answer).toMatchObject({ drawCount: 2, nearestKeyframe: 11 });
    await expect.poll(() => devicePixel(canvas, 200, 100)).toEqual(BLUE);
    expect((await pathFrame(0.2)).answer.drawCount).toBe(1);
    await expect.poll(() => devicePixel(canvas, 200, 100)[3]).toBe(0);
  });

  test('a canvas of another size than the path is refused', async () => {
    await expect(
      loadPathView(
        { download: await download(text()), calibration: null, image, tags: [] },
        { pixelRatio: 1 },
        0,
        pathCanvas(100, 100).transferControlToOffscreen(),
      ),
    ).rejects.toThrow('loadPathView: the canvas is 100×100, the path needs 700×650');
  });

  test('the worker downloads a file whole, with the headers it is given', async () => {
    // About 9 MB: many network chunks into one buffer sized by the Content-Length.
    const lines = Array.from({ length: 400_000 }, (_, i) => `${i} ${(i % 700) / 50} 1 ${i}.000`);
    const before = performance.timeOrigin + performance.now();
    const { answer, calls, token } = await downloadAnswer({ body: `${lines.join('\n')}\n` });
    expect(calls).toEqual([
      { key: 'GET /api/keyframes/test.txt', authorization: `Bearer ${token}` },
    ]);
    if (!answer.ok) throw new Error(`the download answered ${answer.status}`);
    // The arrival time is on the epoch clock both threads share.
    expect(answer.value.arrivedAt).toBeGreaterThanOrEqual(before);
    expect(answer.value.arrivedAt).toBeLessThanOrEqual(performance.timeOrigin + performance.now());
    const { path } = await loadPathView(
      { download: answer.value.download, calibration: null, image, tags: [] },
      { pixelRatio: 1 },
      0,
      pathCanvas(700, 650).transferControlToOffscreen(),
    );
    expect(path.report).toMatchObject({ lines: 400_000, points: 400_000, badLines: 0 });
    expect(path.bounds).toEqual({ min: 0, max: 399_999 });
  });

  test('a failed download: an HTTP error comes back as an answer, a network failure rejects', async () => {
    const refused = await downloadAnswer({
      status: 401,
      statusText: 'Unauthorized',
      body: '{"message":"Invalid or expired token"}',
    });
    expect(refused.answer).toEqual({
      ok: false,
      status: 401,
      statusText: 'Unauthorized',
      body: '{"message":"Invalid or expired token"}',
    });
    // fetch's TypeError, as Comlink carries an error across (its name and message).
    await expect(downloadAnswer({ kind: 'network-error' })).rejects.toMatchObject({
      name: 'TypeError',
      message: 'Failed to fetch',
    });
    // The connection drops halfway through the body.
    await expect(downloadAnswer({ kind: 'cut', body: text().repeat(1000) })).rejects.toMatchObject({
      name: 'TypeError',
    });
  });

  test('the worker downloads from this origin only, and keeps one file at a time', async () => {
    await expect(
      downloadKeyframes('https://example.com/api/keyframes/test.txt', {
        Authorization: 'Bearer x',
      }),
    ).rejects.toThrow('download: https://example.com/api/keyframes/test.txt is not on this origin');
    const first = await download(text());
    await download(text());
    await expect(
      loadPathView(
        { download: first, calibration: null, image, tags: [] },
        { pixelRatio: 1 },
        0,
        pathCanvas(700, 650).transferControlToOffscreen(),
      ),
    ).rejects.toThrow(`loadPathView: no download ${first} (it was taken, replaced or never made)`);
  });

  test('the loaded file’s keyframe image names come from the worker, not a second download', async () => {
    const first = await loadPathView(
      {
        download: await download('1 0 0 0 0.000.png\n2 1 0 1\n3 2 0 2 2.000.png\n'),
        calibration: null,
        image,
        tags: [],
      },
      { pixelRatio: 1 },
      0,
      pathCanvas(700, 650).transferControlToOffscreen(),
    );
    expect(await loadedKeyframeImageNames(first.loadId)).toEqual(['0.000.png', '2.000.png']);
    await loadPathView(
      { download: await download(text()), calibration: null, image, tags: [] },
      { pixelRatio: 1 },
      0,
      pathCanvas(700, 650).transferControlToOffscreen(),
    );
    await expect(loadedKeyframeImageNames(first.loadId)).rejects.toThrow(/has been replaced/);
  });

  test('hitTestPath finds drawn points only, within the radius', async () => {
    await loadPathView(
      { download: await download(text()), calibration: null, image, tags: [] },
      { pixelRatio: 1 },
      0,
      pathCanvas(700, 650).transferControlToOffscreen(),
    );
    expect(await hitTestPath(103, 50, 7, 4)).toBe(1);
    expect(await hitTestPath(103, 50, 7, 1)).toBe(-1);
    expect(await hitTestPath(103, 60, 7, 4)).toBe(-1);
  });

  test('displayGeometry follows spec §9', async () => {
    expect(await displayGeometry({ width: 1400, height: 1000 })).toEqual({
      width: 700,
      height: 500,
      scale: 0.5,
    });
    expect(await displayGeometry(null)).toEqual({ width: 700, height: 525, scale: 0.875 });
  });

  test('terminating the worker ends the calls still waiting on it', async () => {
    const big = Array.from({ length: 300_000 }, (_, i) => `${i} 1 2 ${i}`).join('\n');
    const pending = loadPathView(
      { download: await download(big), calibration: null, image, tags: [] },
      { pixelRatio: 1 },
      0,
      pathCanvas(700, 650).transferControlToOffscreen(),
    );
    terminatePathWorker();
    await expect(pending).rejects.toThrow('the path worker was stopped');
    // A frame before any load in the fresh worker is refused with a clear message.
    await expect(pathFrame(0)).rejects.toThrow(/no path view is loaded/);
  });
});
