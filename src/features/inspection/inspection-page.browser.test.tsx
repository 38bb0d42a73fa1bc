import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { LONGWORD, pageWidth } from '../../../tests/web/long-text.ts';
import { cleanup, type FakeRoute, fakeFetch, render } from '../../../tests/web/render.tsx';
import { Toolbar } from '../../app/toolbar.tsx';
import { paths } from '../../config/paths.ts';
import { deleteRecording, listRecordings, loadChunks } from '../../lib/capture/recording-db.ts';
import { formatDuration } from '../../lib/format-duration.ts';
import { session, signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { MyLineDetail } from '../../types/api.ts';
import InspectionPage from './inspection-page.tsx';

afterEach(async () => {
  await cleanup();
  for (const recording of await listRecordings()) await deleteRecording(recording.id);
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  toasts.items = [];
});

const lineId = 'a'.repeat(24);
const detail: MyLineDetail = {
  line: activeLine(lineId),
  checklist: { floorplanConfigId: null, tags: [], hotZones: [] },
  otherLineTags: [],
  minVideoSeconds: 30,
};

const fields = [
  ['Product leaving the line', 'Aspirin 500 mg'],
  ['Batch leaving the line', 'B-1001'],
  ['Product coming next', 'Ibuprofen 200 mg'],
  ['Batch coming next', 'B-2002'],
] as const;

let painting: ReturnType<typeof setInterval> | undefined;
afterEach(() => clearInterval(painting));

/** A camera that fails to open with these errors, one per attempt, then opens (a canvas). */
function cameraFailing(...errors: string[]) {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 48;
  // Painted again and again: a stream hands over frames (and the preview plays) only then.
  let shade = 0;
  painting = setInterval(() => {
    const context = canvas.getContext('2d');
    if (!context) return;
    shade = (shade + 8) % 256;
    context.fillStyle = `rgb(${shade} 0 0)`;
    context.fillRect(0, 0, 64, 48);
  }, 100);
  return vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockImplementation(async () => {
    const name = errors.shift();
    if (name) throw new DOMException('camera', name);
    return canvas.captureStream(5);
  });
}

/** Opens the screen; `line` is the server's answer for the line (its detail, or a refusal). */
async function visit(lineDetail = detail, line: FakeRoute = { body: lineDetail }) {
  const { fetchImpl } = fakeFetch({
    [`GET /api/my/lines/${lineId}`]: line,
    'GET /api/my/devices': { body: [] },
  });
  vi.stubGlobal('fetch', fetchImpl);
  signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
  await render(
    <Router hook={memoryLocation({ path: `/inspection/${lineId}` }).hook}>
      <Route path={paths.inspection}>
        <InspectionPage />
      </Route>
    </Router>,
  );
}

const start = () => page.getByRole('button', { name: 'Start Recording' }).click();

/** Fills in step 1 and starts: step 2 opens the camera. */
async function fillAndStart() {
  for (const [label, value] of fields) await page.getByLabelText(label).fill(value);
  await start();
}

describe('inspection screen, step 1', () => {
  it('wraps a long line name in its title on a phone instead of widening the page', async () => {
    await page.viewport(390, 844);
    try {
      await visit({ ...detail, line: activeLine(lineId, { name: LONGWORD }) });
      const title = page.getByRole('heading', { level: 1 });
      await expect.element(title).toHaveTextContent(`Inspection: ${LONGWORD}`);
      expect(pageWidth()).toBeLessThanOrEqual(390);
    } finally {
      await page.viewport(414, 896);
    }
  });

  it('marks the four product and batch fields required', async () => {
    await visit();
    for (const [label] of fields) {
      const input = page.getByLabelText(label);
      await expect.element(input).toBeRequired();
      await expect.element(input).toHaveAttribute('aria-required', 'true');
    }
    // The device is optional.
    await expect.element(page.getByText('Start Recording')).toBeVisible();
  });

  it('an empty start names each blank field under it and focuses the first, without a toast', async () => {
    await visit();
    await page.getByLabelText('Product leaving the line').fill('Aspirin 500 mg');
    await start();
    const batch = page.getByLabelText('Batch leaving the line');
    await expect.element(batch).toHaveFocus();
    await expect.element(batch).toHaveAttribute('aria-invalid', 'true');
    await expect.element(batch).toHaveAccessibleDescription('Batch leaving the line is required');
    await expect
      .element(page.getByLabelText('Batch coming next'))
      .toHaveAccessibleDescription('Batch coming next is required');
    // The filled field carries no error.
    await expect
      .element(page.getByLabelText('Product leaving the line'))
      .not.toHaveAttribute('aria-invalid');
    expect(page.getByText('Product leaving the line is required').query()).toBeNull();
    expect(toasts.items).toEqual([]);
    // Still on step 1; typing clears that field's error.
    await expect.element(page.getByText('Step 1 of 3')).toBeVisible();
    await batch.fill('B-1001');
    await expect.element(batch).not.toHaveAttribute('aria-invalid');
    expect(page.getByText('Batch leaving the line is required').query()).toBeNull();
  });

  it('a blank of spaces counts as empty', async () => {
    await visit();
    for (const [label, value] of fields) await page.getByLabelText(label).fill(value);
    await page.getByLabelText('Product coming next').fill('   ');
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByLabelText('Product coming next')).toHaveFocus();
    await expect.element(page.getByText('Step 1 of 3')).toBeVisible();
  });
});

describe('inspection screen, a line that cannot be inspected', () => {
  const back = () => page.getByRole('link', { name: 'Back to Operator Dashboard' });

  it('says a line under maintenance is, with no step to begin and a way back', async () => {
    await visit({ ...detail, line: activeLine(lineId, { status: 'maintenance' }) });
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('This line is under maintenance: inspections cannot start.');
    await expect.element(back()).toBeVisible();
    expect(page.getByRole('heading', { name: /^Step 1 of 3/ }).query()).toBeNull();
  });

  it('says an unknown line is not found, with a way back', async () => {
    await visit(detail, { status: 404, body: { message: 'Line clearance not found' } });
    await expect.element(page.getByRole('alert')).toHaveTextContent('Line clearance not found');
    await expect.element(back()).toBeVisible();
  });
});

describe('inspection screen, step 1: what the server would refuse', () => {
  it('counts characters as the server does, and names a field too long as it is typed', async () => {
    await visit();
    const product = page.getByLabelText('Product leaving the line');
    await product.fill('x'.repeat(170));
    await expect.element(product).toHaveAccessibleDescription('170 of 200 characters');
    // The server counts code points: 200 '💊' (400 UTF-16 units) are 200 characters, all taken.
    await product.fill('💊'.repeat(200));
    await expect.element(product).toHaveValue('💊'.repeat(200));
    await expect.element(product).toHaveAccessibleDescription('200 of 200 characters');
    await expect.element(product).not.toHaveAttribute('aria-invalid');
    await userEvent.type(product, 'y');
    await expect.element(product).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(product)
      .toHaveAccessibleDescription(
        'Product leaving the line must be at most 200 characters (it has 201) 201 of 200 characters',
      );
  });

  it('a field of invisible characters only is blank, as the server would refuse it', async () => {
    await visit();
    for (const [label, value] of fields) await page.getByLabelText(label).fill(value);
    // A zero-width space and a no-break space: nothing a reader could see.
    await page.getByLabelText('Batch coming next').fill('\u200B\u00A0\u200B');
    await start();
    const batch = page.getByLabelText('Batch coming next');
    await expect.element(batch).toHaveFocus();
    await expect.element(batch).toHaveAccessibleDescription('Batch coming next is required');
    await expect.element(page.getByText('Step 1 of 3')).toBeVisible();
  });
});

describe('inspection screen, recording with the keyboard', () => {
  it('moves focus to each new step’s heading, and to Pause and Resume; labels the size', async () => {
    cameraFailing();
    await visit();
    await fillAndStart();
    await expect.element(page.getByRole('heading', { name: 'Step 2 of 3 · Record' })).toHaveFocus();

    await page.getByRole('button', { name: 'Record' }).click();
    const pause = page.getByRole('button', { name: 'Pause' });
    await expect.element(pause).toHaveFocus();
    await expect.element(page.getByText(/^Storage left: .+ · Recorded: .+$/)).toBeVisible();
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByRole('button', { name: 'Resume' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(pause).toHaveFocus();
    // Stopped before the recorder's first chunk, nothing is recorded and Submit stays off.
    await expect.element(page.getByText(/ · Recorded: (?!0 Bytes)/)).toBeVisible();

    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.element(page.getByRole('heading', { name: 'Step 3 of 3 · Review' })).toHaveFocus();
    await page.getByRole('button', { name: 'Submit' }).click();
    // No server and no upload queue here: kept on the device, so neither submitted nor verified.
    await expect
      .element(page.getByRole('heading', { name: 'Submitting the inspection' }))
      .toHaveFocus();
    expect(page.getByText('Upload complete and verified.').query()).toBeNull();
  });
});

describe('inspection screen, leaving while recording (browser history, as in the app)', () => {
  // The test page's own address, given back when done.
  const testPage = window.location.href;
  afterEach(() => {
    history.replaceState(null, '', testPage);
  });

  /** The page at its address under the app's toolbar; any other path shows 'Elsewhere'. */
  async function visitRouted() {
    const { fetchImpl } = fakeFetch({
      [`GET /api/my/lines/${lineId}`]: { body: detail },
      'GET /api/my/devices': { body: [] },
      'POST /api/logout': { body: {} },
    });
    vi.stubGlobal('fetch', fetchImpl);
    signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
    history.replaceState(null, '', '/operator');
    history.pushState(null, '', `/inspection/${lineId}`);
    await render(
      <Router>
        <Toolbar />
        <Switch>
          <Route path={paths.inspection}>
            <InspectionPage />
          </Route>
          <Route>
            <h1>Elsewhere</h1>
          </Route>
        </Switch>
      </Router>,
    );
  }

  /** Step 2, recording: what the guard holds. */
  async function startRecording() {
    cameraFailing();
    await visitRouted();
    await fillAndStart();
    await page.getByRole('button', { name: 'Record' }).click();
    await expect.element(page.getByRole('button', { name: 'Pause' })).toHaveFocus();
    // A first chunk stored: what a stop keeps.
    await expect.element(page.getByText(/ · Recorded: (?!0 Bytes)/)).toBeVisible();
  }

  const pause = page.getByRole('button', { name: 'Pause' });
  const dialog = (name: string) => page.getByRole('dialog', { name });
  const kept = async () => {
    const [recording] = await listRecordings();
    expect(recording).toMatchObject({ state: 'recorded' });
    expect(recording?.endedAt).not.toBeNull();
    expect(recording?.size).toBeGreaterThan(0);
  };

  it('asks before a reload or a link leaves a recording: Keep recording stays, Stop and leave keeps it stopped', async () => {
    await startRecording();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    const logo = page.getByRole('link', { name: 'LC Line Clearance: start page' });
    await userEvent.click(logo);
    const leave = dialog('Leave while recording?');
    await expect
      .element(leave)
      .toHaveTextContent(
        'Recording is in progress. Leave this page? The recording stops here and stays on this device: submit it from the Operator Dashboard.',
      );
    await expect.element(leave.getByRole('button', { name: 'Keep recording' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(leave).not.toBeInTheDocument();
    expect(location.pathname).toBe(`/inspection/${lineId}`);
    await expect.element(pause).toBeVisible();
    expect((await listRecordings())[0]?.state).toBe('recording');

    await userEvent.click(logo);
    await userEvent.click(leave.getByRole('button', { name: 'Stop and leave' }));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(location.pathname).toBe('/');
    // Stopped as Stop would: kept on the device as recorded, with its real end.
    await vi.waitFor(kept);
  });

  it('asks before Log out stops a recording, and signs out only when told to', async () => {
    await startRecording();
    const logOut = async () => {
      await userEvent.click(page.getByRole('button', { name: 'O Olga: account menu' }));
      await userEvent.click(page.getByRole('menuitem', { name: 'Log out' }));
    };
    const signOutDialog = dialog('Log out while recording?');

    await logOut();
    await expect
      .element(signOutDialog)
      .toHaveTextContent(/^Log out while recording\?Recording is in progress\. Log out\?/);
    await userEvent.click(signOutDialog.getByRole('button', { name: 'Keep recording' }));
    await expect.element(signOutDialog).not.toBeInTheDocument();
    expect(session.loggedIn).toBe(true);
    expect(location.pathname).toBe(`/inspection/${lineId}`);
    // Back on the recording's control, the menu item that asked being gone.
    await expect.element(pause).toHaveFocus();

    await logOut();
    await userEvent.click(signOutDialog.getByRole('button', { name: 'Stop and log out' }));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(session.loggedIn).toBe(false);
    expect(location.pathname).toBe('/');
    await vi.waitFor(kept);
  });

  it('asks before the browser’s Back leaves a recording (Navigation API)', async () => {
    await startRecording();
    const previous = navigation.entries()[(navigation.currentEntry?.index ?? 0) - 1];
    // Back as the browser announces it to a top-level page it lets cancel it (this test runs in
    // an iframe, where Chromium does not).
    const event = new Event('navigate', { cancelable: true });
    Object.assign(event, { navigationType: 'traverse', destination: previous });
    navigation.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await userEvent.click(
      dialog('Leave while recording?').getByRole('button', { name: 'Stop and leave' }),
    );
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(location.pathname).toBe('/operator');
    await vi.waitFor(kept);
  });

  it('does not hold the move to sign-in when the session ends by itself', async () => {
    await startRecording();
    signOut();
    history.pushState(null, '', '/login');
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(page.getByRole('dialog').query()).toBeNull();
    await vi.waitFor(kept);
  });
});

describe('inspection screen, step 2 without a camera', () => {
  it('says what to do, retries the camera, and goes back to step 1 with what was typed', async () => {
    const getUserMedia = cameraFailing('NotFoundError', 'NotReadableError', 'NotFoundError');
    await visit();
    await fillAndStart();

    await expect.element(page.getByText('Step 2 of 3')).toBeVisible();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(
        'No camera was found on this device. Use a phone or tablet with a camera (or connect one), then try again.',
      );
    // Retry opens the camera again: this time another app holds it.
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('The camera is in use by another app or browser tab. Close it');
    expect(getUserMedia).toHaveBeenCalledTimes(2);

    await page.getByRole('button', { name: 'Back to product and batch' }).click();
    await expect.element(page.getByText('Step 1 of 3')).toBeVisible();
    for (const [label, value] of fields) {
      await expect.element(page.getByLabelText(label)).toHaveValue(value);
    }

    // Started again, the camera is asked for afresh; the third attempt fails, the fourth opens.
    await start();
    await expect.element(page.getByRole('alert')).toHaveTextContent('No camera was found');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.element(page.getByRole('button', { name: 'Record' })).toBeVisible();
    expect(page.getByRole('alert').query()).toBeNull();
    expect(page.getByRole('button', { name: 'Retry' }).query()).toBeNull();
    expect(getUserMedia).toHaveBeenCalledTimes(4);
  });

  it('tells the operator to allow the camera when access was refused', async () => {
    cameraFailing('NotAllowedError');
    await visit();
    await fillAndStart();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Camera access was refused. Allow the camera for this site');
    await expect.element(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  it('on a page opened over plain http:// on the LAN, says the camera needs HTTPS', async () => {
    cameraFailing('SecurityError');
    vi.stubGlobal('isSecureContext', false);
    await visit();
    await fillAndStart();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Open the app at its https:// address');
    await expect
      .element(page.getByRole('button', { name: 'Back to product and batch' }))
      .toBeVisible();
  });
});

/** Names of the Web Locks held now (by any tab of this browser). */
const heldLocks = async () => ((await navigator.locks.query()).held ?? []).map((lock) => lock.name);

describe('inspection screen, other tabs', () => {
  it('holds the recording’s lock while recording, and lets go once it is kept', async () => {
    cameraFailing();
    await visit();
    await fillAndStart();
    expect(await heldLocks()).not.toContainEqual(expect.stringMatching(/:recording:/));
    await page.getByRole('button', { name: 'Record' }).click();
    await expect.element(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    const [recording] = await listRecordings();
    expect(await heldLocks()).toContain(`line-clearance-capture:recording:${recording?.id}`);

    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeVisible();
    expect(await heldLocks()).not.toContain(`line-clearance-capture:recording:${recording?.id}`);
  });
});

describe('inspection screen, storage full while recording', () => {
  it('stops at the first refused chunk, says so, keeps what was stored and offers it', async () => {
    cameraFailing();
    const put = IDBObjectStore.prototype.put;
    let chunks = 0;
    let full = true;
    // From the third chunk on, the storage refuses chunks at commit while `full`, as a full phone
    // does.
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      value: unknown,
      key?: IDBValidKey,
    ) {
      const request = put.call(this, value, key);
      if (this.name === 'chunks' && ++chunks > 2 && full) {
        request.addEventListener('success', () => {
          Object.defineProperty(this.transaction, 'error', {
            value: new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
          });
          this.transaction.abort();
        });
      }
      return request;
    });
    await visit();
    await fillAndStart();
    await page.getByRole('button', { name: 'Record' }).click();

    const alert = page.getByRole('alert');
    await expect
      .element(alert)
      .toHaveTextContent(
        'The phone’s storage is full, so the recording stopped. What was recorded up to that moment is kept.',
      );
    await expect.element(page.getByRole('heading', { name: 'Step 3 of 3 · Review' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expect.element(page.getByRole('button', { name: 'Discard recording' })).toBeEnabled();

    // The storage works again: nothing more is written, so the video has no hole.
    full = false;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const [kept] = await listRecordings();
    expect(kept).toMatchObject({ state: 'recorded', chunkCount: 2 });
    expect(await loadChunks(kept?.id ?? '')).toHaveLength(2);
    expect(kept?.duration).toBeGreaterThan(1);
    expect(kept?.duration).toBeLessThan(3.5);
    await expect
      .element(page.getByText(formatDuration(kept?.duration ?? 0), { exact: true }))
      .toBeVisible();
  });
});
