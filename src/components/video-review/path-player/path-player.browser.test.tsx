// The path player against a stand-in API and the real path worker: every spec §8 message in its
// situation, the path drawn up to the current time (read back from the canvases), the markers,
// clicks and keys opening the right keyframe or tag, the tag scanning event and the transform
// warning.
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../../tests/web/render.tsx';
import { accessTokenKey } from '../../../stores/session.ts';
import type { FloorplanConfiguration, Video } from '../../../types/api.ts';
import { createPlaybackClock, type PlaybackClock } from '../playback-clock.ts';
import { CURRENT_MARKER_RADIUS, HIGHLIGHT_RADIUS } from './draw.ts';
import {
  configuration,
  type FakeAnswer,
  fakeApi,
  fixtureRoutes,
  keyframeAt,
  stopFakeApi,
  VIDEO_ID,
  video,
} from './path-player.fixtures.ts';
import { PathPlayer, type PathPlayerProps, type QrScannedTag } from './path-player.tsx';
import { pathPlayerMessages as m, pathPlayerStrings as s } from './strings.ts';
import { TAG_SCANNING_EVENT, type TagScanningDetail } from './tag-scanning-event.ts';

const configRoute = `GET /api/floorplan-configs/${VIDEO_ID}`;
const keyframesRoute = `GET /api/keyframes/${VIDEO_ID}.txt`;

beforeEach(async () => {
  await page.viewport(1280, 1000);
});

afterEach(async () => {
  await cleanup();
  await stopFakeApi();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

interface Shown {
  clock: PlaybackClock;
  props: PathPlayerProps;
  /** The requests of the page and of the path worker. */
  calls: () => Promise<string[]>;
  /** The page's requests with their queries. */
  urls: () => string[];
  /** Renders the player again with these props changed (a page passing new ones). */
  update: (changed: Partial<PathPlayerProps>) => void;
  canvases: () => { floor: HTMLCanvasElement; path: HTMLCanvasElement; tags: HTMLCanvasElement };
}

async function show(
  routes: Record<string, FakeAnswer>,
  options: {
    video?: Video;
    highlightTime?: number | null;
    qrScannedTags?: readonly QrScannedTag[];
    pathMissingReason?: string | null;
    recordedChecklist?: boolean;
  } = {},
): Promise<Shown> {
  const { calls, urls } = await fakeApi(routes);
  const clock = createPlaybackClock();
  const props: PathPlayerProps = {
    video: options.video ?? video,
    clock,
    highlightTime: options.highlightTime ?? null,
    onKeyframeClick: vi.fn(),
    onTagClick: vi.fn(),
    onLoaded: vi.fn(),
    qrScannedTags: options.qrScannedTags,
    pathMissingReason: options.pathMissingReason,
    recordedChecklist: options.recordedChecklist,
  };
  let setProps: Shown['update'] = () => {
    throw new Error('the player has not rendered yet');
  };
  function Page() {
    const [current, setCurrent] = useState(props);
    setProps = (changed) => setCurrent((before) => ({ ...before, ...changed }));
    return <PathPlayer {...current} />;
  }
  const container = await render(<Page />);
  const canvases = () => {
    const [floor, pathHost] = container.querySelector('[aria-hidden="true"]')?.children ?? [];
    const tags = container.querySelector('canvas[role="img"]');
    const path = pathHost?.querySelector('canvas');
    if (!(floor instanceof HTMLCanvasElement) || !(tags instanceof HTMLCanvasElement)) {
      throw new Error('the path player shows no floor plan');
    }
    return {
      floor,
      tags,
      get path(): HTMLCanvasElement {
        if (!path) throw new Error('the path player shows no path layer');
        return path;
      },
    };
  };
  return { clock, props, calls, urls, update: (changed) => setProps(changed), canvases };
}

/**
 * A load starts the path worker, compiles its WASM, downloads the keyframes file and paints the
 * first frame: a fraction of a second alone, many seconds beside the rest of `npm test` on two busy
 * cores.
 */
const loadBudget = { timeout: 20_000 };

/** Waits until the player has loaded (it reports bounds or null once per load). */
async function loaded(shown: Shown) {
  await expect.poll(() => vi.mocked(shown.props.onLoaded).mock.calls.length, loadBudget).toBe(1);
}

/** The points the player has opened so far, in order. */
const openedKeyframes = (shown: Shown) =>
  vi.mocked(shown.props.onKeyframeClick).mock.calls.map(([point]) => point);
const openedTags = (shown: Shown) =>
  vi.mocked(shown.props.onTagClick).mock.calls.map(([tag]) => tag);

/**
 * RGBA of a display-pixel position of a canvas (700 display px wide) at its pixel ratio, read
 * through a copy of what it shows (the path layer is painted by the worker, not readable here).
 */
function pixel(canvas: HTMLCanvasElement, point: { x: number; y: number }): number[] {
  const ratio = canvas.width / 700;
  const probe = document.createElement('canvas');
  [probe.width, probe.height] = [canvas.width, canvas.height];
  const ctx = probe.getContext('2d');
  if (!ctx) throw new Error('no 2D context');
  ctx.drawImage(canvas, 0, 0);
  return Array.from(ctx.getImageData(point.x * ratio, point.y * ratio, 1, 1).data);
}

const readout = () => page.getByText(/^Path point /);

/** Moves the clock and waits for the frame showing the keyframe nearest to it. */
async function seek(shown: Shown, time: number, keyframeText: string) {
  shown.clock.time = time;
  await expect.element(readout()).toHaveTextContent(keyframeText);
}

/** Clicks the top canvas at a display-pixel position. */
async function clickAt(point: { x: number; y: number }) {
  const surface = page.getByRole('img', { name: 'Floor plan with the inspection path' });
  const box = surface.element().getBoundingClientRect();
  const scale = box.width / 700;
  await userEvent.click(surface, { position: { x: point.x * scale, y: point.y * scale } });
}

const BLUE = [37, 99, 235];

/** What onLoaded reports for a loaded path. */
const bounds = (min: number, max: number) => ({
  min,
  max,
  keyframeImageNames: expect.any(Function),
});

/** Where a marker's dot is centred, in display pixels; null while it is hidden. */
function marker(kind: 'current' | 'highlight'): { x: number; y: number; radius: number } | null {
  const layer = document.querySelector<HTMLElement>(`.path-player__marker--${kind}`);
  const dot = layer?.querySelector('span');
  const stage = document.querySelector('.path-player__stage canvas[role="img"]');
  if (!layer || !dot || !stage || layer.hidden) return null;
  const box = dot.getBoundingClientRect();
  const frame = stage.getBoundingClientRect();
  const scale = 700 / frame.width;
  return {
    x: Math.round((box.left + box.width / 2 - frame.left) * scale),
    y: Math.round((box.top + box.height / 2 - frame.top) * scale),
    radius: Math.round((box.width / 2) * scale),
  };
}

describe('path player: drawing', () => {
  it('draws the path up to the current time and the current keyframe on top', async () => {
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    expect(shown.props.onLoaded).toHaveBeenCalledWith(bounds(0, 9));
    // The keyframe image names of the same file, read in the worker (no second download).
    const info = vi.mocked(shown.props.onLoaded).mock.lastCall?.[0];
    expect(await info?.keyframeImageNames?.()).toEqual(['3.000.png']);
    expect((await shown.calls()).filter((call) => call === keyframesRoute)).toHaveLength(1);
    await expect.element(readout()).toHaveTextContent('Path point 1000 · 0.00 s');
    const { path, floor } = shown.canvases();
    expect([floor.width, floor.height]).toEqual([700, 500]);

    // Time 4.5: keyframes 0..4 are drawn; 4 and 5 are equally near, the earlier is current.
    await seek(shown, 4.5, 'Path point 1004 · 4.00 s');
    await expect.poll(() => pixel(path, keyframeAt(2))).toEqual([...BLUE, 255]);
    await expect.poll(() => pixel(path, keyframeAt(4))).toEqual([...BLUE, 255]);
    await expect.poll(() => pixel(path, keyframeAt(7))[3]).toBe(0);
    await expect
      .poll(() => marker('current'))
      .toEqual({ ...keyframeAt(4), radius: CURRENT_MARKER_RADIUS });
    expect(marker('highlight')).toBeNull();

    // Scrubbing back takes points away again.
    await seek(shown, 1, 'Path point 1001 · 1.00 s');
    await expect.poll(() => pixel(path, keyframeAt(1))).toEqual([...BLUE, 255]);
    await expect.poll(() => pixel(path, keyframeAt(2))[3]).toBe(0);
    await expect.poll(() => marker('current')).toMatchObject(keyframeAt(1));
  });

  it('always draws the point nearest the time, even before the first thinned point is due', async () => {
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    const { path } = shown.canvases();
    // At time 0 keyframe 0 is due (t ≤ time) and drawn; before it, only its current marker.
    await expect.element(readout()).toHaveTextContent('Path point 1000 · 0.00 s');
    await expect.poll(() => pixel(path, keyframeAt(0))).toEqual([...BLUE, 255]);
    shown.clock.time = -3;
    await expect.poll(() => pixel(path, keyframeAt(0))[3]).toBe(0);
    await expect.element(readout()).toHaveTextContent('Path point 1000 · 0.00 s');
    await expect.poll(() => marker('current')).toMatchObject(keyframeAt(0));
  });

  it('thins the path to points at least 12 px apart: a click opens the nearest kept one', async () => {
    // Points 0.2 map units = 5 display px apart: thinning keeps every third (0, 3, 6, 9).
    const lines = Array.from({ length: 10 }, (_, i) => `${1000 + i} ${0.2 * i} 0 ${i}`);
    const shown = await show(
      await fixtureRoutes({ [keyframesRoute]: { bytes: lines.join('\n') } }),
    );
    await loaded(shown);
    // Time 6.4: the current keyframe is 6 (x 80); kept 0 and 3 are drawn before it.
    await seek(shown, 6.4, 'Path point 1006 · 6.00 s');
    // A click is answered by the worker's hit test: wait for each answer.
    await clickAt({ x: 60, y: 50 }); // nearer kept 3 (x 65) than kept 0 (x 50); point 2 is not kept
    await expect.poll(() => openedKeyframes(shown)).toEqual([{ time: 3, index: 1003 }]);
    await clickAt({ x: 54, y: 50 });
    await expect
      .poll(() => openedKeyframes(shown))
      .toEqual([
        { time: 3, index: 1003 },
        { time: 0, index: 1000 },
      ]);
  });

  it('rings the point nearest the highlighted time with radius 18', async () => {
    const shown = await show(await fixtureRoutes(), { highlightTime: 7.2 });
    await loaded(shown);
    await seek(shown, 2, 'Path point 1002 · 2.00 s');
    await expect
      .poll(() => marker('highlight'))
      .toEqual({ ...keyframeAt(7), radius: HIGHLIGHT_RADIUS });
    await expect.poll(() => marker('current')).toMatchObject(keyframeAt(2));
  });

  it('sizes the canvases for the device pixel ratio', async () => {
    vi.stubGlobal('devicePixelRatio', 2);
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    await seek(shown, 3, 'Path point 1003 · 3.00 s');
    const { path, tags, floor } = shown.canvases();
    expect([path.width, path.height]).toEqual([1400, 1000]);
    expect([tags.width, tags.height]).toEqual([1400, 1000]);
    expect([floor.width, floor.height]).toEqual([1400, 1000]);
    await expect.poll(() => pixel(path, keyframeAt(2))).toEqual([...BLUE, 255]);
    await expect.poll(() => marker('current')).toMatchObject(keyframeAt(3));
  });

  it('names the transform it used and warns in the console about calibration errors over 10 px', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // Four pairs, forced affine: the fourth floor-plan point is 15 px off any affine map.
    const skewed: FloorplanConfiguration = {
      ...configuration,
      forceAffine: true,
      slamPoints: [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
      ],
      floorplanPoints: [
        [100, 100],
        [600, 100],
        [615, 600],
        [100, 600],
      ],
    };
    const shown = await show(
      await fixtureRoutes({ [configRoute]: { json: { configuration: skewed } } }),
    );
    await loaded(shown);
    await expect
      .element(page.getByText(/^Path mapped with affine transform from 4 calibration points/))
      .toBeVisible();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('calibration point errors over 10 px'),
      expect.any(Array),
      [{ kind: 'perspective', reason: 'forced-affine' }],
    );
  });
});

describe('path player: spec §8 messages', () => {
  const message = (text: string) => page.getByRole('alert').filter({ hasText: text });

  it("'No keyframesPath provided.' for a video without a keyframes path; the floor plan still shows", async () => {
    const noPath = { ...video, path: { video: video.path.video, keyframesData: '' } };
    const shown = await show(await fixtureRoutes(), { video: noPath });
    await loaded(shown);
    await expect.element(message(m.noKeyframesPath)).toBeVisible();
    expect(await shown.calls()).not.toContain(keyframesRoute);
    expect(shown.props.onLoaded).toHaveBeenCalledWith(null);
    expect(pixel(shown.canvases().floor, { x: 400, y: 250 })).toEqual([226, 232, 240, 255]);
  });

  it("'No keyframesPath provided.' for a video with no id at all", async () => {
    const anonymous = {
      ...video,
      id: '',
      _id: '',
      filename: '',
      path: { video: '', keyframesData: '' },
    };
    const shown = await show({}, { video: anonymous });
    await loaded(shown);
    await expect.element(message(m.noKeyframesPath)).toBeVisible();
    expect(await shown.calls()).toEqual([]);
  });

  it('asks for the tags the inspection was recorded against on the report only', async () => {
    // The report counts its checklist snapshot; /video shows the line's plan as it is now.
    const report = await show(await fixtureRoutes(), { recordedChecklist: true });
    await loaded(report);
    expect(report.urls()).toContain(`/api/floorplan-configs/${VIDEO_ID}?tags=recorded`);
    await cleanup();
    await stopFakeApi();
    const viewer = await show(await fixtureRoutes());
    await loaded(viewer);
    expect(viewer.urls()).toContain(`/api/floorplan-configs/${VIDEO_ID}`);
  });

  it('a video whose file has not arrived: no path yet, the keyframes never asked for', async () => {
    const notArrived: Video = { ...video, status: 'pending', size: 0, fileSize: 0 };
    const shown = await show(await fixtureRoutes(), { video: notArrived });
    await loaded(shown);
    await expect.element(message(s.awaitingUpload)).toBeVisible();
    expect(await shown.calls()).not.toContain(keyframesRoute);
    expect(await shown.calls()).toContain(configRoute);
    expect(shown.props.onLoaded).toHaveBeenCalledWith(null);
    // The line's floor plan and tags still show.
    expect(pixel(shown.canvases().floor, { x: 400, y: 250 })).toEqual([226, 232, 240, 255]);
  });

  it("'Missing floorplan configuration…' without calibration points; the path falls back to simple scaling", async () => {
    const uncalibrated = { ...configuration, slamPoints: [], floorplanPoints: [] };
    const shown = await show(
      await fixtureRoutes({ [configRoute]: { json: { configuration: uncalibrated } } }),
    );
    await loaded(shown);
    await expect.element(message(m.missingConfiguration)).toBeVisible();
    // With what it means and what to do: the line's floor plan itself is there.
    await expect.element(message(m.missingConfiguration)).toHaveTextContent(s.calibrationHelp);
    await expect
      .element(page.getByText('Path mapped with simple scaling by pixels per meter (approximate).'))
      .toBeVisible();
    expect(shown.props.onLoaded).toHaveBeenCalledWith(bounds(0, 9));
  });

  it('no path and a configuration without calibration points: the path’s message, not a missing configuration', async () => {
    const uncalibrated = { ...configuration, slamPoints: [], floorplanPoints: [] };
    const noPath = { ...video, path: { video: video.path.video, keyframesData: '' } };
    const shown = await show(
      await fixtureRoutes({ [configRoute]: { json: { configuration: uncalibrated } } }),
      { video: noPath },
    );
    await loaded(shown);
    await expect.element(message(m.noKeyframesPath)).toBeVisible();
    expect(page.getByRole('alert').elements()).toHaveLength(1);
    await expect.element(page.getByText(/Missing floorplan configuration/)).not.toBeInTheDocument();
    // The line's floor plan and tags still show.
    expect(pixel(shown.canvases().floor, { x: 400, y: 250 })).toEqual([226, 232, 240, 255]);
  });

  it('says the analysis’s reason beside the spec message when it made no path', async () => {
    const noPath = { ...video, path: { video: video.path.video, keyframesData: '' } };
    const shown = await show(await fixtureRoutes(), {
      video: noPath,
      pathMissingReason:
        'fewer than two scans of tags with a known floor-plan position (0): no path',
    });
    await loaded(shown);
    await expect
      .element(message(m.noKeyframesPath))
      .toHaveTextContent(
        `${m.noKeyframesPath} The analysis made no path for this recording: fewer than two scans of tags with a known floor-plan position (0).`,
      );
    expect(await shown.calls()).not.toContain(keyframesRoute);
  });

  it('says no reason beside a path that loaded', async () => {
    const shown = await show(await fixtureRoutes(), { pathMissingReason: 'an old reason' });
    await loaded(shown);
    expect(shown.props.onLoaded).toHaveBeenCalledWith(bounds(0, 9));
    expect(page.getByRole('alert').elements()).toHaveLength(0);
    await expect.element(page.getByText(/an old reason/)).not.toBeInTheDocument();
  });

  it("'Failed to fetch keyframes data: {status} {statusText}' on an HTTP error", async () => {
    const shown = await show(
      await fixtureRoutes({ [keyframesRoute]: { status: 503, statusText: 'Service Unavailable' } }),
    );
    await loaded(shown);
    await expect
      .element(message('Failed to fetch keyframes data: 503 Service Unavailable'))
      .toBeVisible();
    expect(shown.props.onLoaded).toHaveBeenCalledWith(null);
  });

  it('says the server’s reason beside a 404 of the keyframes file (the video page)', async () => {
    const why =
      'Keyframes file not found. No path: the analysis found fewer than two scans of tags with a known floor-plan position (1).';
    const shown = await show(
      await fixtureRoutes({
        [keyframesRoute]: {
          status: 404,
          statusText: 'Not Found',
          bytes: JSON.stringify({ message: why }),
        },
      }),
    );
    await loaded(shown);
    await expect
      .element(message('Failed to fetch keyframes data: 404 Not Found'))
      .toHaveTextContent(`Failed to fetch keyframes data: 404 Not Found ${why}`);
  });

  it('a 401 on the keyframes file signs out and goes to /login, as every API call does', async () => {
    const shown = await show(
      await fixtureRoutes({
        [keyframesRoute]: {
          status: 401,
          statusText: 'Unauthorized',
          bytes: '{"message":"Invalid or expired token"}',
        },
      }),
    );
    const testPage = window.location.href;
    try {
      await loaded(shown);
      await expect
        .element(message('Failed to fetch keyframes data: 401 Unauthorized'))
        .toBeVisible();
      expect(localStorage.getItem(accessTokenKey)).toBeNull();
      expect(window.location.pathname).toBe('/login');
    } finally {
      window.history.replaceState(null, '', testPage);
    }
  });

  it("'Keyframes file is empty.' for a file with no keyframe line", async () => {
    const shown = await show(await fixtureRoutes({ [keyframesRoute]: { bytes: ' \n\n' } }));
    await loaded(shown);
    await expect.element(message(m.keyframesEmpty)).toBeVisible();
  });

  it("'Error loading keyframes data.' when the download fails on the network", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const shown = await show(await fixtureRoutes({ [keyframesRoute]: 'network-error' }));
    await loaded(shown);
    await expect.element(message(m.keyframesError)).toBeVisible();
  });

  it("'No path points loaded.' for a file of only malformed lines", async () => {
    const shown = await show(
      await fixtureRoutes({ [keyframesRoute]: { bytes: 'index x y t\n1 2 three 4\n' } }),
    );
    await loaded(shown);
    await expect.element(message(m.noPathPoints)).toBeVisible();
    expect(shown.props.onLoaded).toHaveBeenCalledWith(null);
  });

  it("'No floorplan configuration found for video: {id}' on 404; the path still loads", async () => {
    const shown = await show(
      await fixtureRoutes({ [configRoute]: { status: 404, json: { message: 'Not found' } } }),
    );
    await loaded(shown);
    await expect
      .element(message(`No floorplan configuration found for video: ${VIDEO_ID}`))
      .toBeVisible();
    expect(shown.props.onLoaded).toHaveBeenCalledWith(bounds(0, 9));
  });

  it("'Failed to load floorplan configuration from API.' on any other failure", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const shown = await show(await fixtureRoutes({ [configRoute]: { status: 500, json: {} } }));
    await loaded(shown);
    await expect.element(message(m.configurationFailed)).toBeVisible();
  });

  it("'No floorplan configuration available.' when the answer has no configuration", async () => {
    const shown = await show(await fixtureRoutes({ [configRoute]: { json: {} } }));
    await loaded(shown);
    await expect.element(message(m.configurationUnavailable)).toBeVisible();
  });
});

describe('path player: interaction', () => {
  it('a click on a drawn path point opens that keyframe; on the current marker the current one', async () => {
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    await seek(shown, 6, 'Path point 1006 · 6.00 s');
    const kf3 = { time: 3, index: 1003 };
    const kf6 = { time: 6, index: 1006 };
    await clickAt({ x: keyframeAt(3).x + 4, y: keyframeAt(3).y + 3 });
    await expect.poll(() => openedKeyframes(shown)).toEqual([kf3]);
    await clickAt({ x: keyframeAt(6).x - 10, y: keyframeAt(6).y });
    await expect.poll(() => openedKeyframes(shown)).toEqual([kf3, kf6]);
    // A point not drawn yet, and empty floor, open nothing. The worker answers hit tests in the
    // order of the clicks, so once the drawn point clicked after them has opened, their answers
    // are in: had either hit, it would sit before that point in the list.
    await clickAt(keyframeAt(8));
    await clickAt({ x: 300, y: 250 });
    await clickAt(keyframeAt(5));
    await expect.poll(() => openedKeyframes(shown)).toEqual([kf3, kf6, { time: 5, index: 1005 }]);
  });

  it('a click on a tag opens it, even where the path runs over it', async () => {
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    await seek(shown, 9, 'Path point 1009 · 9.00 s');
    const [onPath, farAway] = configuration.tags;
    await clickAt({ x: 600, y: 400 });
    await expect.poll(() => openedTags(shown)).toEqual([farAway]);
    // Keyframe 1 lies under this tag: the tag wins, and no path point opens.
    await clickAt({ x: 100, y: 50 });
    await expect.poll(() => openedTags(shown)).toEqual([farAway, onPath]);
    // Had a tag click opened the path point under it, it would sit before keyframe 4 here.
    await clickAt(keyframeAt(4));
    await expect.poll(() => openedKeyframes(shown)).toEqual([{ time: 4, index: 1004 }]);
  });

  it('works from the keyboard: Enter on the canvas opens the current keyframe; tags are buttons', async () => {
    const shown = await show(await fixtureRoutes());
    await loaded(shown);
    await seek(shown, 2.2, 'Path point 1002 · 2.00 s');
    const surface = page.getByRole('img', { name: 'Floor plan with the inspection path' });
    surface.element().focus();
    await userEvent.keyboard('{Enter}');
    expect(shown.props.onKeyframeClick).toHaveBeenCalledWith({ time: 2, index: 1002 });
    await userEvent.click(
      page.getByRole('button', { name: 'Tag far away, not scanned: show details' }),
    );
    expect(shown.props.onTagClick).toHaveBeenCalledWith(configuration.tags[1]);
    await expect.element(page.getByRole('heading', { name: 'Tags: 1 of 2 scanned' })).toBeVisible();
    await expect
      .element(page.getByRole('button', { name: 'Tag on the path, scanned: show details' }))
      .toBeVisible();
  });

  it("dispatches 'tag-scanning-update' with the scanned tags", async () => {
    const events: TagScanningDetail[] = [];
    const listener = (event: CustomEvent<TagScanningDetail>) => events.push(event.detail);
    window.addEventListener(TAG_SCANNING_EVENT, listener);
    try {
      const shown = await show(await fixtureRoutes());
      await loaded(shown);
      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toEqual({
        scannedCount: 1,
        totalCount: 2,
        scannedIndices: [0],
        tags: configuration.tags,
      });
    } finally {
      window.removeEventListener(TAG_SCANNING_EVENT, listener);
    }
  });

  it('a new video aborts the previous load and shows its own path', async () => {
    const otherId = '65a1b2c3d4e5f60718293aff';
    const other: Video = {
      ...video,
      id: otherId,
      _id: otherId,
      path: { video: video.path.video, keyframesData: `/api/keyframes/${otherId}.txt` },
    };
    const shown = await show(
      await fixtureRoutes({
        [`GET /api/floorplan-configs/${otherId}`]: { json: { configuration } },
        [`GET /api/keyframes/${otherId}.txt`]: 'never',
      }),
      { video: other },
    );
    await expect
      .poll(() => shown.calls(), loadBudget)
      .toContain(`GET /api/keyframes/${otherId}.txt`);
    shown.update({ video });
    await expect
      .poll(() => vi.mocked(shown.props.onLoaded).mock.calls, loadBudget)
      .toEqual([[bounds(0, 9)]]);
    shown.clock.time = 5;
    await expect.element(readout()).toHaveTextContent('Path point 1005 · 5.00 s');
  });
});

describe('path player: tags scanned by their QR code (the inspection report)', () => {
  const [onPath, farAway] = configuration.tags;
  /** Inside a tag's disc, clear of its check mark or cross: the tag's colour when scanned. */
  const discOf = (tag: { x: number; y: number }) => ({ x: tag.x, y: tag.y - 6 });
  const WHITE = [255, 255, 255, 255];
  const FAR_AWAY_COLOUR = [0x43, 0x63, 0xd8, 255];
  const tagState = (name: string) =>
    page.getByRole('button', { name: new RegExp(`^${name}, `) }).element().textContent;
  /** The checklist's QR scan of the plan's tag `index`, under the name the checklist has. */
  const qrScanOf = (index: number, name = configuration.tags[index]!.name): QrScannedTag => ({
    index,
    name,
    qrCode: configuration.tags[index]!.qrCode!,
  });

  /** The fixture's player, given these QR scans, once loaded and showing `heading`. */
  async function showCounting(qrScannedTags: QrScannedTag[] | undefined, heading: string) {
    const shown = await show(await fixtureRoutes(), { qrScannedTags });
    await loaded(shown);
    await expect.element(page.getByRole('heading', { name: heading })).toBeVisible();
    return shown;
  }

  /** Collects the 'tag-scanning-update' events until the test ends. */
  function scanningEvents(): TagScanningDetail[] {
    const events: TagScanningDetail[] = [];
    const listener = (event: CustomEvent<TagScanningDetail>) => events.push(event.detail);
    window.addEventListener(TAG_SCANNING_EVENT, listener);
    onTestFinished(() => window.removeEventListener(TAG_SCANNING_EVENT, listener));
    return events;
  }

  it('counts, labels and draws a tag scanned by its QR code only; the event stays the path’s', async () => {
    const events = scanningEvents();
    const shown = await showCounting([qrScanOf(1)], 'Tags: 2 of 2 scanned');
    expect(tagState('Tag far away')).toBe('Tag far away Scanned (QR code)');
    expect(tagState('Tag on the path')).toBe('Tag on the path Scanned (path)');
    await expect
      .element(page.getByRole('button', { name: 'Tag far away, scanned (QR code): show details' }))
      .toBeVisible();
    expect(pixel(shown.canvases().tags, discOf(farAway!))).toEqual(FAR_AWAY_COLOUR);
    // Spec §4: the event says which tags the path scanned, whatever else the page knows.
    await expect.poll(() => events).toHaveLength(1);
    expect(events[0]).toMatchObject({ scannedCount: 1, totalCount: 2, scannedIndices: [0] });
  });

  it('says a tag scanned by QR code and passed by the path was scanned both ways', async () => {
    await showCounting([qrScanOf(0)], 'Tags: 1 of 2 scanned');
    expect(tagState('Tag on the path')).toBe('Tag on the path Scanned (QR code and path)');
    expect(tagState('Tag far away')).toBe('Tag far away Not scanned');
  });

  it('does not count a QR scan of a tag the plan no longer has as the checklist does, and says so', async () => {
    // The checklist's tag 1 had another name when the inspection began: not this plan's tag 1.
    const shown = await showCounting([qrScanOf(1, 'Tag since renamed')], 'Tags: 1 of 2 scanned');
    expect(tagState('Tag far away')).toBe('Tag far away Not scanned');
    expect(pixel(shown.canvases().tags, discOf(farAway!))).toEqual(WHITE);
    await expect.element(page.getByText(s.qrUnmatched(['Tag since renamed']))).toBeVisible();
  });

  it('shows a set handed over after the load (the report arriving later) on the plan too', async () => {
    const shown = await showCounting([], 'Tags: 1 of 2 scanned');
    const { tags } = shown.canvases();
    expect(pixel(tags, discOf(farAway!))).toEqual(WHITE);
    shown.update({ qrScannedTags: [qrScanOf(1)] });
    await expect.element(page.getByRole('heading', { name: 'Tags: 2 of 2 scanned' })).toBeVisible();
    // The same canvas, drawn again: the path was not loaded a second time.
    await expect.poll(() => pixel(tags, discOf(farAway!))).toEqual(FAR_AWAY_COLOUR);
    expect((await shown.calls()).filter((call) => call === keyframesRoute)).toHaveLength(1);
    expect(shown.props.onLoaded).toHaveBeenCalledTimes(1);
  });

  it('without them (the video analysis page) counts and labels the path’s scan alone', async () => {
    const shown = await showCounting(undefined, 'Tags: 1 of 2 scanned');
    expect(tagState('Tag on the path')).toBe('Tag on the path Scanned');
    expect(tagState('Tag far away')).toBe('Tag far away Not scanned');
    expect(pixel(shown.canvases().tags, discOf(farAway!))).toEqual(WHITE);
    expect(pixel(shown.canvases().tags, discOf(onPath!))).toEqual([0x3c, 0xb4, 0x4b, 255]);
  });
});
