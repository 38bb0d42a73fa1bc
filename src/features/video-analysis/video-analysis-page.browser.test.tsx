import { format } from 'date-fns';
import { Profiler } from 'react';
import {
  afterEach,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  onTestFinished,
  vi,
} from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render, unexpectedRequest } from '../../../tests/web/render.tsx';
import { boxStyle } from '../../components/video-review/keyframe-modal.tsx';
import type { PathPlayerProps } from '../../components/video-review/path-player/path-player.tsx';
import { recordWebm } from '../../components/video-review/webm.fixtures.ts';
import { paths } from '../../config/paths.ts';
import { setKeyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import VideoAnalysisPage from './video-analysis-page.tsx';

// The floor-plan path player is another part's (and tested there); this stand-in exposes the
// calls the page must answer: the path loaded (with the keyframe image names the real player reads
// in its worker from the file it downloaded) or not, a path point clicked, a tag clicked.
const standIn = vi.hoisted(() => ({
  renders: 0,
  /** The image names of video A's keyframes file (keyframesA below), as the worker reads them. */
  imageNames: ['0.000.png', '1.335.png', '2.665.png', '8.250.png', '9.500.png', '17.500.png'],
}));
/** React commits anywhere in the page (a Profiler around it). */
const reactCommits = { count: 0 };
vi.mock('../../components/video-review/path-player/path-player.tsx', () => ({
  PathPlayer: (props: PathPlayerProps) => {
    standIn.renders++;
    const calls: Record<string, () => void> = {
      'Path loaded': () =>
        props.onLoaded({ min: 0.5, max: 30, keyframeImageNames: async () => standIn.imageNames }),
      'Path failed': () => props.onLoaded(null),
      'Path point clicked': () => props.onKeyframeClick({ time: 1.9, index: 142 }),
      'Tag clicked': () =>
        props.onTagClick({
          x: 120,
          y: 48.5,
          name: 'LC1-TAG-03',
          qrCode: 'QR-LC1-03',
          color: '#ff8800',
          description: 'Feeder exit',
          id: 3,
          type: 'qr',
          status: 'scanned',
        }),
    };
    return (
      <section aria-label="Path player stand-in">
        {Object.entries(calls).map(([label, call]) => (
          <button key={label} type="button" onClick={call}>
            {label}
          </button>
        ))}
        <output aria-label="Highlight time">{String(props.highlightTime)}</output>
      </section>
    );
  },
}));

const ids = {
  a: 'a00000000000000000000001',
  b: 'b00000000000000000000002',
  c: 'c00000000000000000000003',
  d: 'd00000000000000000000004',
  line1: 'e00000000000000000000001',
  line2: 'e00000000000000000000002',
  user1: 'f00000000000000000000001',
  user2: 'f00000000000000000000002',
};

const video = (
  id: string,
  name: string,
  line: string | null,
  user: string | null,
  day: number,
) => ({
  _id: id,
  id,
  filename: `${name}.mp4`,
  timestamp: `2026-11-${String(day).padStart(2, '0')}T08:15:00.000Z`,
  userId: user,
  operatorId: user,
  deviceId: null,
  lineClearanceId: line,
  path: { video: `/api/videos/${name}.mp4`, keyframesData: `/api/keyframes/${id}.txt` },
  status: 'completed',
  size: 1000,
  fileSize: 1000,
  duration: 40,
  metadata: { device: null, location: null, duration: 40 },
  relatedData: { predictions: 3, reports: 0, floorplanConfigs: 1, floorplans: 1 },
});

const videoA = video(ids.a, 'lc1-a', ids.line1, ids.user1, 3);
const videoB = video(ids.b, 'lc2-b', ids.line2, ids.user2, 10);
const videoC = video(ids.c, 'lc9-c', 'e00000000000000000000099', null, 12);
const videoD = video(ids.d, 'lc1-d', ids.line1, ids.user1, 1);

const lines = [
  { _id: ids.line1, name: 'Blister Line 1', status: 'active', assignedOperators: [] },
  { _id: ids.line2, name: 'Bottling Line 2', status: 'active', assignedOperators: [] },
];
const users = [
  { _id: ids.user1, id: ids.user1, name: 'Tomás Rivera', email: 't@example.com', role: 'operator' },
  { _id: ids.user2, id: ids.user2, name: 'Priya Nair', email: 'p@example.com', role: 'operator' },
];

const prediction = (filename: string, labels: string[], confs: number[]) => ({
  _id: `0000000000000000000${filename.replace(/\D/g, '').padStart(5, '0')}`,
  filename,
  subfolder: 'lc1-a-frames',
  class_labels: labels,
  confs,
  boxes_normalized: labels.map(() => [0.25, 0.5, 0.5, 0.75]),
});
// Out of order on purpose: the page sorts by the numeric file name.
const predictionsA = [
  prediction('17.500.png', ['debris', 'tool'], [0.68, 0.904]),
  prediction('8.250.png', ['carton'], [0.718]),
  prediction('9.500.png', ['tool'], [0.55]),
];
/** Video A's keyframes file, for the tests of the page's own download when no path loaded. */
const keyframesA = [
  '0 0.5 -6.8 0.000 0.000.png',
  '1 0.6 -6.8 0.700',
  '2 0.7 -6.9 1.335 1.335.png',
  '3 0.8 -6.9 2.665 2.665.png',
  '4 1.0 -7.0 8.250 8.250.png',
  '5 1.1 -7.0 9.500 9.500.png',
  '6 1.2 -7.1 17.500 17.500.png',
].join('\n');

interface Answer {
  status?: number;
  body: unknown;
}

/**
 * Answers by "METHOD /path" (query ignored; calls keep it); a string body is sent as text.
 * Anything unlisted fails the test at cleanup().
 */
function fakeApi(overrides: Record<string, Answer> = {}) {
  const routes: Record<string, Answer> = {
    'GET /api/videos': { body: [videoA, videoB, videoC] },
    'GET /api/users': { body: users },
    'GET /api/line-clearances': { body: lines },
    [`GET /api/predictions/${ids.a}`]: { body: predictionsA },
    [`GET /api/predictions/${ids.b}`]: { body: [] },
    [`GET /api/predictions/${ids.c}`]: { body: [] },
    [`GET /api/predictions/${ids.d}`]: { body: [] },
    ...overrides,
  };
  const calls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(`${key}${url.search}`);
    const route = routes[key];
    if (!route) return unexpectedRequest(key);
    const text = typeof route.body === 'string';
    return new Response(text ? (route.body as string) : JSON.stringify(route.body), {
      status: route.status ?? 200,
      headers: { 'Content-Type': text ? 'text/plain' : 'application/json' },
    });
  };
  vi.stubGlobal('fetch', fetchImpl);
  return calls;
}

async function showPage(path: string, overrides?: Record<string, Answer>) {
  const calls = fakeApi(overrides);
  const memory = memoryLocation({ path, record: true });
  await render(
    <Profiler id="page" onRender={() => reactCommits.count++}>
      <Router hook={memory.hook}>
        <Switch>
          <Route path={paths.video}>
            <VideoAnalysisPage />
          </Route>
          <Route path={paths.videoWithId}>
            <VideoAnalysisPage />
          </Route>
        </Switch>
      </Router>
    </Profiler>,
  );
  return { calls, location: () => memory.history.at(-1) };
}

let consoleErrors: MockInstance<typeof console.error>;
beforeEach(() => {
  signIn('token', {
    id: ids.user1,
    name: 'Sofia Lindqvist',
    email: 's@example.com',
    roles: ['lc_manager'],
  });
  // The media has no real source in these tests: its load errors are logged, as spec §8 says.
  consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  await cleanup();
  signOut();
  setKeyboardShortcuts(true);
  toasts.items = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // The browser's default, for a test that widened the window.
  await page.viewport(414, 896);
});

const loggedMessages = () => consoleErrors.mock.calls.map((call) => String(call[0]));
const card = (line: string, when: string) =>
  page.getByRole('button', { name: new RegExp(`^${line}.*${when}`) });
const slider = () => page.getByRole('slider', { name: 'Time' });
/** The text of the item marked current (the selected video card or detection), if any. */
const currentText = (scope: ParentNode = document) =>
  scope.querySelector('[aria-current="true"]')?.textContent;
const mediaElement = () => document.querySelector('video') as HTMLVideoElement;
const mainList = () => page.getByRole('region', { name: /^Detections/ }).first();

describe('Video Analysis page: header, breadcrumb and empty state (spec §2)', () => {
  it('shows the header, the breadcrumb by role and the empty state with debug lines', async () => {
    const { calls } = await showPage('/video');
    await expect
      .element(page.getByRole('heading', { level: 1, name: 'Video Analysis' }))
      .toBeVisible();
    await expect
      .element(page.getByText('View and analyze line clearance inspection videos'))
      .toBeVisible();
    await expect
      .element(page.getByRole('button', { name: 'Back to Line Clearance Manager Dashboard' }))
      .toBeVisible();
    await expect.element(page.getByText('Video Library')).toBeVisible();
    await expect.element(page.getByRole('heading', { name: 'No video selected' })).toBeVisible();
    await expect
      .element(
        page.getByText('Please select a video from the timeline on the left to begin analysis.'),
      )
      .toBeVisible();
    await expect.element(page.getByText('Videos loaded: 3')).toBeVisible();
    await expect.element(page.getByText('videoId parameter: none')).toBeVisible();
    expect(calls).toEqual(
      expect.arrayContaining(['GET /api/videos', 'GET /api/users', 'GET /api/line-clearances']),
    );
    expect(document.querySelector('video')).toBeNull();
  });

  it('lists the videos newest first with line, operator, status and duration', async () => {
    await showPage('/video');
    const cards = page.getByRole('listitem').filter({ has: page.getByRole('button') });
    await expect.element(cards.nth(2)).toBeVisible();
    const texts = cards.elements().map((element) => element.textContent);
    expect(texts[0]).toContain('Unknown Line');
    expect(texts[0]).toContain('Operator: Unknown');
    expect(texts[1]).toContain('Bottling Line 2');
    expect(texts[1]).toContain('Operator: Priya Nair');
    expect(texts[2]).toContain('Blister Line 1');
    expect(texts[2]).toContain('completed');
    expect(texts[2]).toContain('Duration: 40 s');
  });
});

describe('selection by the videoId parameter (spec §4)', () => {
  it('selects the exact id', async () => {
    const { location } = await showPage(`/video/${ids.b}`);
    await expect.poll(() => currentText()).toContain('Bottling Line 2');
    expect(location()).toBe(`/video/${ids.b}`);
    expect(mediaElement().getAttribute('src')).toBe('/api/videos/lc2-b.mp4');
  });

  it('selects an id containing the parameter and moves the URL to the full id', async () => {
    const { location } = await showPage('/video/c0000000');
    await expect.poll(() => currentText()).toContain('Unknown Line');
    await expect.poll(() => location()).toBe(`/video/${ids.c}`);
  });

  it('fetches an id that is not in the list and shows it', async () => {
    const { calls, location } = await showPage(`/video/${ids.d}`, {
      [`GET /api/videos/${ids.d}`]: { body: videoD },
    });
    await expect.poll(() => mediaElement()?.getAttribute('src')).toBe('/api/videos/lc1-d.mp4');
    expect(calls).toContain(`GET /api/videos/${ids.d}`);
    expect(location()).toBe(`/video/${ids.d}`);
  });

  it('says a recording still uploading has no file yet, with no player to request it', async () => {
    const uploading = { ...videoD, status: 'pending', size: 0, fileSize: 0 };
    const { calls } = await showPage(`/video/${ids.d}`, {
      [`GET /api/videos/${ids.d}`]: { body: uploading },
    });
    await expect
      .element(page.getByText('The video file has not arrived yet', { exact: false }))
      .toBeVisible();
    // The <video> element is what would request the file.
    expect(document.querySelector('video')).toBeNull();
    // Nothing is analysed yet: no keyframe list is asked for, and a click finds no image.
    await page.getByRole('button', { name: 'Path failed' }).click();
    await page.getByRole('button', { name: 'Path point clicked' }).click();
    const dialog = page.getByRole('dialog', { name: 'Keyframe image at 1.900 s' });
    await expect.element(dialog.getByText('No keyframe image for this time.')).toBeVisible();
    expect(calls.filter((call) => call.startsWith('GET /api/keyframes/'))).toEqual([]);
    expect(loggedMessages()).not.toContain('Failed to load the keyframe image list');
  });

  it('falls back to the first video when the fetch fails', async () => {
    const { location } = await showPage(`/video/${ids.d}`, {
      [`GET /api/videos/${ids.d}`]: { status: 404, body: { message: 'Video not found' } },
    });
    await expect.poll(() => location()).toBe(`/video/${ids.a}`);
    await expect.poll(() => currentText()).toContain('Blister Line 1');
  });

  it('falls back to the first video for a parameter that is no id, without fetching it', async () => {
    const { calls, location } = await showPage('/video/lc7-unknown.mp4');
    await expect.poll(() => location()).toBe(`/video/${ids.a}`);
    expect(calls.filter((call) => call.startsWith('GET /api/videos/'))).toEqual([]);
  });

  it('selecting a card moves the URL and starts the new video at 0, paused', async () => {
    const { location } = await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await slider().click();
    await userEvent.keyboard('{End}');
    await expect.element(page.getByText('30.00 s', { exact: true })).toBeVisible();
    await card('Bottling Line 2', '2026-11-10').click();
    expect(location()).toBe(`/video/${ids.b}`);
    await expect.element(page.getByText('0.00 s', { exact: true })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  });
});

describe('timeline filters and failures (spec §4, §8)', () => {
  it('reloads the videos on every filter change with repeated query parameters', async () => {
    const { calls } = await showPage('/video');
    await expect.element(page.getByText('Videos loaded: 3')).toBeVisible();
    await page.getByRole('button', { name: /^Line clearances:/ }).click();
    await page.getByRole('checkbox', { name: 'Blister Line 1' }).click();
    await page.getByRole('checkbox', { name: 'Bottling Line 2' }).click();
    await userEvent.keyboard('{Escape}');
    await expect
      .poll(() => calls)
      .toContain(`GET /api/videos?lineIDs=${ids.line1}&lineIDs=${ids.line2}`);
    await page.getByRole('button', { name: /^Users:/ }).click();
    await page.getByRole('checkbox', { name: 'Priya Nair' }).click();
    await userEvent.keyboard('{Escape}');
    await expect
      .poll(() => calls)
      .toContain(`GET /api/videos?userIds=${ids.user2}&lineIDs=${ids.line1}&lineIDs=${ids.line2}`);

    const today = new Date();
    const first = new Date(today.getFullYear(), today.getMonth(), 3);
    const last = new Date(today.getFullYear(), today.getMonth(), 9);
    await page.getByRole('button', { name: 'Filter by date range' }).click();
    await page.getByRole('button', { name: format(last, 'EEEE, MMMM d, yyyy') }).click();
    await page.getByRole('button', { name: format(first, 'EEEE, MMMM d, yyyy') }).click();
    const start = first.toISOString();
    const end = new Date(last.getFullYear(), last.getMonth(), 9, 23, 59, 59, 999).toISOString();
    await expect
      .poll(() => {
        const query = new URLSearchParams(calls.at(-1)?.split('?')[1]);
        return ['startDate', 'endDate', 'userIds'].map((name) => query.getAll(name));
      })
      .toEqual([[start], [end], [ids.user2]]);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => calls.at(-1)).toBe('GET /api/videos');
  });

  it('only logs failed loads, with no message to the user', async () => {
    await showPage('/video', {
      'GET /api/videos': { status: 500, body: { message: 'boom' } },
      'GET /api/users': { status: 403, body: { message: 'Forbidden' } },
      'GET /api/line-clearances': { status: 503, body: { message: 'down' } },
    });
    await expect.element(page.getByText('Videos loaded: 0')).toBeVisible();
    await expect
      .poll(() => loggedMessages())
      .toEqual(
        expect.arrayContaining([
          'Failed to load videos',
          'Failed to load users',
          'Failed to load line clearances',
        ]),
      );
    expect(toasts.items).toEqual([]);
  });

  it('shows cards with Unknown operator when the users cannot be read', async () => {
    await showPage('/video', { 'GET /api/users': { status: 403, body: { message: 'Forbidden' } } });
    await expect
      .element(card('Bottling Line 2', '2026-11-10'))
      .toHaveTextContent('Operator: Unknown');
  });
});

describe('time bounds, slider and playback state (spec §4, §9)', () => {
  it('takes the bounds from the path, resets a time outside them to the minimum', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expect.element(page.getByText('Time bounds: 0.50 s – 30.00 s')).toBeVisible();
    await expect.element(page.getByText('0.50 s', { exact: true })).toBeVisible();
    await expect.element(slider()).toHaveAttribute('step', '0.01');
    // The duration replaces the maximum once the media knows it.
    Object.defineProperty(mediaElement(), 'duration', { configurable: true, value: 38 });
    mediaElement().dispatchEvent(new Event('durationchange'));
    await expect.element(page.getByText('Time bounds: 0.50 s – 38.00 s')).toBeVisible();
  });

  it('disables the slider and shows Playing… while the player plays', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(slider()).toBeEnabled();
    await expect.element(page.getByText('Playing…')).not.toBeInTheDocument();
    mediaElement().dispatchEvent(new Event('play'));
    await expect.element(slider()).toBeDisabled();
    await expect.element(page.getByText('Playing…')).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    // A press on the disabled slider neither pauses nor seeks (Chromium still sends pointerdown).
    slider()
      .element()
      .dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    await expect.element(page.getByText('Playing…')).toBeVisible();
    await expect.element(slider()).toBeDisabled();
    mediaElement().dispatchEvent(new Event('pause'));
    await expect.element(slider()).toBeEnabled();
    await expect.element(page.getByText('Playing…')).not.toBeInTheDocument();
  });

  it('renders nothing in React as the time moves: the slider and the time texts follow it directly', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expect.element(mainList().getByRole('listitem').first()).toBeVisible();
    await expect.element(page.getByText(/^Keyframe image: 1 of 6/)).toBeVisible();
    await slider().click();
    await userEvent.keyboard('{Home}');
    await expect.element(page.getByText('0.50 s', { exact: true })).toBeVisible();
    const commits = reactCommits.count;
    const renders = standIn.renders;
    for (let step = 0; step < 20; step++) await userEvent.keyboard('{ArrowRight}');
    // Past 1.335 s: the keyframe image line changes too.
    for (let step = 0; step < 70; step++) await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByText('1.40 s', { exact: true })).toBeVisible();
    await expect.element(page.getByText(/^Keyframe image: 2 of 6, at 1.33 s/)).toBeVisible();
    const input = slider().element() as HTMLInputElement;
    expect(input.value).toBe('1.4');
    expect(input.getAttribute('aria-valuetext')).toBe('1.40 seconds');
    expect(reactCommits.count).toBe(commits);
    expect(standIn.renders).toBe(renders);
  });

  it('moves the slider to a time set elsewhere, and a slider change seeks the media', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expect.element(mainList().getByRole('listitem').first()).toBeVisible();
    await userEvent.keyboard('n');
    await expect.element(page.getByText('8.25 s', { exact: true })).toBeVisible();
    const input = slider().element() as HTMLInputElement;
    expect(input.value).toBe('8.25');
    expect(input.getAttribute('aria-valuetext')).toBe('8.25 seconds');
    Object.defineProperty(mediaElement(), 'readyState', { configurable: true, value: 4 });
    input.focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByText('8.26 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('{End}');
    await expect.element(page.getByText('30.00 s', { exact: true })).toBeVisible();
    expect(mediaElement().currentTime).toBe(30);
  });

  it('shows the time with 2 decimals as the slider moves', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await slider().click();
    await userEvent.keyboard('{Home}');
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    await expect.element(page.getByText('0.53 s', { exact: true })).toBeVisible();
    // Shift+arrow: a second at a time, within the bounds.
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    await expect.element(page.getByText('2.53 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{/Shift}');
    await expect.element(page.getByText('0.50 s', { exact: true })).toBeVisible();
  });
});

describe('a phone recording that states no duration (MediaRecorder WebM)', () => {
  it('can be scrubbed at once: the slider spans its length and seeks before any playback', async () => {
    // 3 s: more than Chromium buffers of it on its own here, which would tell the length too.
    const source = await recordWebm(3000);
    onTestFinished(() => URL.revokeObjectURL(source));
    const phone = { ...videoA, path: { ...videoA.path, video: source } };
    await showPage(`/video/${ids.a}`, { 'GET /api/videos': { body: [phone, videoB, videoC] } });
    // What the page shows while the player finds the file's length: the time at 0, not playing.
    const seen = new Set<string>();
    const watch = new MutationObserver(() => {
      const time = document.querySelector('.va-time-text')?.textContent;
      if (time) seen.add(time);
      if (document.querySelector('.va-playing')) seen.add('Playing…');
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    onTestFinished(() => watch.disconnect());
    await expect.poll(() => Number(slider().element().getAttribute('max'))).toBeGreaterThan(2);
    watch.disconnect();
    const media = mediaElement();
    const duration = media.duration;
    expect(duration).toBeLessThan(4);
    expect(Number(slider().element().getAttribute('max'))).toBe(duration);
    await expect
      .element(page.getByText(`Time bounds: 0.00 s – ${duration.toFixed(2)} s`))
      .toBeVisible();
    expect([...seen].filter((text) => text !== '0.00 s')).toEqual([]);
    expect(media.currentTime).toBe(0);

    (slider().element() as HTMLInputElement).focus();
    for (let step = 0; step < 50; step++) await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByText('0.50 s', { exact: true })).toBeVisible();
    // Within the seek tolerance (0.05 s) of the clock, as always.
    await expect.poll(() => media.currentTime).toBeCloseTo(0.5, 1);
    expect(media.paused).toBe(true);
    expect(media.played.length).toBe(0);
  });

  it('takes the duration recorded with the video when the file’s own end cannot be found', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expect.element(page.getByText('Time bounds: 0.50 s – 30.00 s')).toBeVisible();
    const media = mediaElement();
    Object.defineProperty(media, 'readyState', { configurable: true, value: 1 });
    Object.defineProperty(media, 'duration', { configurable: true, value: Infinity });
    media.dispatchEvent(new Event('loadedmetadata'));
    // The seek past the end, and the one back to 0, end without a duration.
    media.dispatchEvent(new Event('seeked'));
    media.dispatchEvent(new Event('seeked'));
    await expect.element(page.getByText('Time bounds: 0.50 s – 40.00 s')).toBeVisible();
  });
});

describe('detections (spec §2, §7, §9)', () => {
  it('lists them by time with the first label and its confidence, in both lists', async () => {
    // The sidebar's copy shows beside the main list, in the wide layout only.
    await page.viewport(1280, 900);
    await showPage(`/video/${ids.a}`);
    const items = mainList().getByRole('listitem');
    await expect.element(items.nth(2)).toBeVisible();
    expect(items.elements().map((item) => item.textContent)).toEqual([
      '8.250 scarton72%',
      '9.500 stool55%',
      '17.500 sdebris68%',
    ]);
    await expect
      .element(page.getByRole('complementary', { name: 'Detections (sidebar)' }))
      .toBeVisible();
    expect(document.querySelectorAll('.va-marker')).toHaveLength(3);
  });

  it('keeps the sidebar’s copy out of the Tab order, still opening on a click', async () => {
    // The sidebar's copy shows beside the main list, in the wide layout only.
    await page.viewport(1280, 900);
    await showPage(`/video/${ids.a}`);
    const sidebar = page.getByRole('complementary', { name: 'Detections (sidebar)' });
    await expect.element(sidebar.getByRole('button').nth(2)).toBeVisible();
    expect(
      sidebar
        .getByRole('button')
        .elements()
        .map((button) => button.tabIndex),
    ).toEqual([-1, -1, -1]);
    expect(
      mainList()
        .getByRole('button')
        .elements()
        .map((button) => button.tabIndex),
    ).toEqual([0, 0, 0]);
    // Tab from the main list's last detection passes the sidebar's copy in one stop, its list
    // (scrollable by the keyboard), then leaves the detections behind.
    (mainList().getByRole('button').nth(2).element() as HTMLElement).focus();
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement).toBe(sidebar.getByRole('list').element());
    await userEvent.keyboard('{Tab}');
    expect(sidebar.element().contains(document.activeElement)).toBe(false);
    await sidebar.getByRole('button', { name: /^9\.500 s/ }).click();
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 9.500 s' }))
      .toBeVisible();
  });

  it('has no right sidebar when the video has no detections', async () => {
    await showPage(`/video/${ids.b}`);
    await expect.element(mainList()).toHaveTextContent('No detections');
    expect(document.querySelector('.va-right')).toBeNull();
  });

  it('leaves the list empty when the predictions fail to load', async () => {
    await showPage(`/video/${ids.a}`, {
      [`GET /api/predictions/${ids.a}`]: { status: 500, body: { message: 'boom' } },
    });
    await expect.element(mainList()).toHaveTextContent('No detections');
    await expect.poll(() => loggedMessages()).toContain('Failed to load predictions');
  });

  it('filters the lists and markers by the confidence threshold', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(mainList().getByRole('listitem').nth(2)).toBeVisible();
    await page.getByRole('slider', { name: 'Minimum confidence' }).click();
    await userEvent.keyboard('{Home}');
    for (let step = 0; step < 14; step++) await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByText('70%', { exact: true })).toBeVisible();
    const items = mainList().getByRole('listitem');
    await expect
      .poll(() => items.elements().map((item) => item.textContent))
      .toEqual(['8.250 scarton72%', '17.500 stool90%']);
    expect(document.querySelectorAll('.va-marker')).toHaveLength(2);
  });

  it('seeks to a detection marker on the track', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await page.getByRole('button', { name: /^Go to detection at 17\.50 s/ }).click();
    await expect.element(page.getByText('17.50 s', { exact: true })).toBeVisible();
  });

  it('highlights a hovered detection on the path, else the selected one', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    const highlight = page.getByRole('status', { name: 'Highlight time' });
    const detection = mainList().getByRole('button', { name: /^9\.500 s/ });
    const elsewhere = page.getByRole('heading', { level: 1 });
    await expect.element(highlight).toHaveTextContent(/^null$/);
    await detection.hover();
    await expect.element(highlight).toHaveTextContent(/^9\.5$/);
    await elsewhere.hover();
    await expect.element(highlight).toHaveTextContent(/^null$/);
    // Selected by its marker on the track: highlighted while nothing else is hovered.
    await page.getByRole('button', { name: /^Go to detection at 17\.50 s/ }).click();
    await elsewhere.hover();
    await expect.element(highlight).toHaveTextContent(/^17\.5$/);
    await detection.hover();
    await expect.element(highlight).toHaveTextContent(/^9\.5$/);
    await elsewhere.hover();
    await expect.element(highlight).toHaveTextContent(/^17\.5$/);
  });
});

describe('keyframe image modal (spec §2)', () => {
  it('opens from a detection with its boxes, and closes by Close or the backdrop', async () => {
    await showPage(`/video/${ids.a}`);
    await mainList()
      .getByRole('button', { name: /^17\.500 s/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Keyframe image at 17.500 s' });
    await expect.element(dialog).toBeVisible();
    const image = dialog.getByRole('img', { name: 'Keyframe image at 17.500 s' });
    await expect.element(image).toHaveAttribute('src', '/api/keyframes/lc1-a-frames/17.500.png');
    // The labels with 1 decimal; the boxes over the image are checked end to end (no images here).
    const objects = dialog.getByRole('listitem');
    await expect.element(objects.nth(1)).toBeVisible();
    expect(objects.elements().map((item) => item.textContent)).toEqual([
      'debris 68.0%',
      'tool 90.4%',
    ]);
    await dialog.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();
    await expect.element(dialog).not.toBeInTheDocument();

    await mainList()
      .getByRole('button', { name: /^8\.250 s/ })
      .click();
    await expect.element(page.getByRole('dialog')).toBeVisible();
    await userEvent.click(document.querySelector('.dialog-overlay') as Element, {
      position: { x: 5, y: 5 },
    });
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  });

  /** Clicks the stand-in's path point (time 1.9) and checks the modal shows keyframe 1.335. */
  async function expectNearestImageOpens() {
    await page.getByRole('button', { name: 'Path point clicked' }).click();
    const dialog = page.getByRole('dialog', { name: 'Keyframe image at 1.335 s' });
    await expect.element(dialog).toBeVisible();
    await expect
      .element(dialog.getByRole('img'))
      .toHaveAttribute('src', '/api/keyframes/lc1-a-frames/1.335.png');
    await expect.element(dialog.getByText('No detections for this frame')).toBeVisible();
  }

  it('opens the nearest keyframe image for a clicked path point, by the names the path player read', async () => {
    const { calls } = await showPage(`/video/${ids.a}`);
    await expect.element(mainList().getByRole('listitem').first()).toBeVisible();
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expectNearestImageOpens();
    // The path worker already holds the keyframes file: the page never downloads it again.
    expect(calls.filter((call) => call.startsWith('GET /api/keyframes/'))).toEqual([]);
  });

  it('downloads the keyframes file itself for the image names when the path did not load', async () => {
    const { calls } = await showPage(`/video/${ids.a}`, {
      [`GET /api/keyframes/${ids.a}.txt`]: { body: keyframesA },
    });
    await page.getByRole('button', { name: 'Path failed' }).click();
    await expectNearestImageOpens();
    expect(calls).toContain(`GET /api/keyframes/${ids.a}.txt`);
  });

  it('asks for no keyframes file when the video names none (no path was made)', async () => {
    const noFile = { ...videoB, path: { ...videoB.path, keyframesData: '' } };
    const { calls } = await showPage(`/video/${ids.b}`, {
      'GET /api/videos': { body: [videoA, noFile, videoC] },
    });
    await page.getByRole('button', { name: 'Path failed' }).click();
    await page.getByRole('button', { name: 'Path point clicked' }).click();
    await expect.element(page.getByText('No keyframe image for this time.')).toBeVisible();
    expect(calls.filter((call) => call.startsWith('GET /api/keyframes/'))).toEqual([]);
  });

  it('says so when the keyframe list could not be read', async () => {
    await showPage(`/video/${ids.b}`, {
      [`GET /api/keyframes/${ids.b}.txt`]: { status: 404, body: { message: 'Not found' } },
    });
    await page.getByRole('button', { name: 'Path failed' }).click();
    await page.getByRole('button', { name: 'Path point clicked' }).click();
    const dialog = page.getByRole('dialog', { name: 'Keyframe image at 1.900 s' });
    await expect.element(dialog.getByText('No keyframe image for this time.')).toBeVisible();
    expect(loggedMessages()).toContain('Failed to load the keyframe image list');
  });
});

describe('bounding boxes', () => {
  it('places a box by its image fractions', () => {
    expect(boxStyle([0.25, 0.5, 0.5, 0.75])).toEqual({
      left: '25%',
      top: '50%',
      width: '25%',
      height: '25%',
    });
  });
});

describe('tag details modal (spec §2)', () => {
  it('shows every tag field and closes by the x button or the backdrop', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Tag clicked' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag details: LC1-TAG-03' });
    await expect.element(dialog).toBeVisible();
    for (const text of ['QR-LC1-03', 'Feeder exit', 'qr', 'scanned', 'x 120, y 48.5', '#ff8800']) {
      await expect.element(dialog.getByText(text, { exact: true })).toBeVisible();
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await page.getByRole('button', { name: 'Tag clicked' }).click();
    await expect.element(dialog).toBeVisible();
    await userEvent.click(document.querySelector('.dialog-overlay') as Element, {
      position: { x: 5, y: 5 },
    });
    await expect.element(dialog).not.toBeInTheDocument();
  });
});

describe('keyboard shortcuts', () => {
  it('N / P go through the detections and highlight them', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await expect.element(mainList().getByRole('listitem').first()).toBeVisible();
    await userEvent.keyboard('n');
    await expect.element(page.getByText('8.25 s', { exact: true })).toBeVisible();
    const list = document.querySelector('.va-main .va-detection-list') as Element;
    await expect.poll(() => currentText(list)).toBe('8.250 scarton72%');
    await userEvent.keyboard('n');
    await expect.element(page.getByText('9.50 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('p');
    await expect.element(page.getByText('8.25 s', { exact: true })).toBeVisible();
    const output = document.querySelector('[aria-label="Highlight time"]');
    expect(output?.textContent).toBe('8.25');
  });

  it('N / P step the open keyframe modal through the detections', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await mainList()
      .getByRole('button', { name: /^8\.250 s/ })
      .click();
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 8.250 s' }))
      .toBeVisible();
    await userEvent.keyboard('n');
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 9.500 s' }))
      .toBeVisible();
    await userEvent.keyboard('{ArrowRight}');
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 17.500 s' }))
      .toBeVisible();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 8.250 s' }))
      .toBeVisible();
  });

  it('says politely which keyframe ← / → brought, and names its × apart from Close', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await mainList()
      .getByRole('button', { name: /^8\.250 s/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Keyframe image at 8.250 s' });
    const status = dialog.getByRole('status');
    await expect.element(status).toHaveTextContent('Keyframe 4 of 6');
    await userEvent.keyboard('{ArrowRight}');
    await expect
      .element(page.getByRole('dialog', { name: 'Keyframe image at 9.500 s' }).getByRole('status'))
      .toHaveTextContent('Keyframe 5 of 6');
    const modal = page.getByRole('dialog');
    expect(modal.getByRole('button', { name: 'Close', exact: true }).all()).toHaveLength(1);
    await modal.getByRole('button', { name: 'Close keyframe', exact: true }).click();
    await expect.element(modal).not.toBeInTheDocument();
  });

  it('← / → step through the keyframe images; J jumps back 5 s', async () => {
    await showPage(`/video/${ids.a}`);
    await page.getByRole('button', { name: 'Path loaded' }).click();
    await page.getByRole('heading', { level: 1 }).click();
    await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByText('1.33 s', { exact: true })).toBeVisible();
    await expect.element(page.getByText(/Keyframe image: 2 of 6/)).toBeVisible();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    await expect.element(page.getByText('9.50 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('{ArrowLeft}');
    await expect.element(page.getByText('8.25 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('j');
    await expect.element(page.getByText('3.25 s', { exact: true })).toBeVisible();
    await userEvent.keyboard('j');
    await expect.element(page.getByText('0.50 s', { exact: true })).toBeVisible();
  });

  it('[ / ] change the speed within 0.25× to 2×', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(page.getByText('Speed: 1×')).toBeVisible();
    await userEvent.keyboard(']');
    await expect.element(page.getByText('Speed: 1.25×')).toBeVisible();
    expect(mediaElement().playbackRate).toBe(1.25);
    // `[[` types one `[` (a lone `[` opens a key descriptor in user-event's syntax).
    for (let press = 0; press < 8; press++) await userEvent.keyboard('[[');
    await expect.element(page.getByText('Speed: 0.25×')).toBeVisible();
  });

  it('Space plays or pauses, K pauses, L plays and then plays faster', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(slider()).toBeVisible();
    const media = mediaElement();
    let paused = true;
    Object.defineProperty(media, 'paused', { configurable: true, get: () => paused });
    const play = vi.spyOn(media, 'play').mockImplementation(async () => {
      paused = false;
      media.dispatchEvent(new Event('play'));
    });
    const pause = vi.spyOn(media, 'pause').mockImplementation(() => {
      paused = true;
      media.dispatchEvent(new Event('pause'));
    });
    await page.getByRole('heading', { level: 1 }).click();
    await userEvent.keyboard(' ');
    expect(play).toHaveBeenCalledTimes(1);
    await expect.element(page.getByText('Playing…')).toBeVisible();
    await userEvent.keyboard(' ');
    expect(pause).toHaveBeenCalledTimes(1);
    await expect.element(page.getByText('Playing…')).not.toBeInTheDocument();
    await userEvent.keyboard('l');
    expect(play).toHaveBeenCalledTimes(2);
    await userEvent.keyboard('l');
    await expect.element(page.getByText('Speed: 1.25×')).toBeVisible();
    await userEvent.keyboard('k');
    expect(pause).toHaveBeenCalledTimes(2);
  });

  it('leaves keys alone while typing in a field', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(page.getByText('Speed: 1×')).toBeVisible();
    const input = document.createElement('input');
    input.setAttribute('aria-label', 'Notes');
    document.body.append(input);
    await page.getByRole('textbox', { name: 'Notes' }).click();
    await userEvent.keyboard(']]');
    // The field got the keys (the page did not take them)...
    expect(input.value).toBe(']]');
    // ...and the speed did not move: one `]` outside the field makes it 1.25×, not 1.75×.
    await page.getByRole('heading', { level: 1 }).click();
    await userEvent.keyboard(']');
    await expect.element(page.getByText('Speed: 1.25×')).toBeVisible();
    expect(mediaElement().playbackRate).toBe(1.25);
  });

  it('act only from the workspace or no control, and nowhere once turned off (WCAG 2.1.4)', async () => {
    await showPage(`/video/${ids.a}`);
    await expect.element(page.getByText('Speed: 1×')).toBeVisible();
    const focus = (element: Element) => (element as HTMLElement).focus();
    // A video card of the timeline and the breadcrumb are outside the workspace: `]` is theirs.
    focus(document.querySelector('.va-video-card') as Element);
    await userEvent.keyboard(']');
    focus(page.getByRole('button', { name: /^Back to/ }).element());
    await userEvent.keyboard(']');
    // Play is in it: one step faster, 1.25× (not 1.75×).
    focus(page.getByRole('button', { name: 'Play', exact: true }).element());
    await userEvent.keyboard(']');
    await expect.element(page.getByText('Speed: 1.25×')).toBeVisible();

    setKeyboardShortcuts(false);
    await userEvent.keyboard(']');
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard(']');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect.element(page.getByText('Speed: 1.25×')).toBeVisible();
    expect(mediaElement().playbackRate).toBe(1.25);
  });
});
