import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Link, Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { activeLine } from '../../../tests/web/line-fixture.ts';
import { cleanup, render, unexpectedRequest } from '../../../tests/web/render.tsx';
import { Toolbar } from '../../app/toolbar.tsx';
import { session, signIn, signOut } from '../../stores/session.ts';
import type { Floorplan, FloorplanConfigSave, FloorplanConfiguration } from '../../types/api.ts';
import FloorplanManagerPage from './floorplan-manager-page.tsx';

const lineId = 'c00000000000000000000001';
const line = activeLine(lineId);
const plan = (id: string): Floorplan => ({
  _id: id,
  name: 'Floorplan',
  imagePath: `floorplans/${id}.png`,
  lineID: lineId,
  createdAt: '2026-11-03T09:15:00.000Z',
});
const oldPlan = plan('f00000000000000000000001');
const newPlan = plan('f00000000000000000000002');

/** The saved configuration: one tag in the middle of the old plan's 800 × 500 frame. */
const savedConfiguration: FloorplanConfiguration = {
  floorplanImage: oldPlan.imagePath,
  displaySize: { width: 800, height: 500 },
  hotZones: [],
  tags: [{ x: 400, y: 250, name: 'Tag 1', color: '#e6194b' }],
  cameras: [],
  coordinateSystem: { useSimpleMapping: true, pixelsPerMeter: 50 },
};

async function png(width: number, height: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D context');
  context.fillStyle = '#f8fafc';
  context.fillRect(0, 0, width, height);
  return canvas.convertToBlob({ type: 'image/png' });
}

const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

/** Another manager's save since the wizard read the configuration, as the server refuses it. */
const savedMeanwhile =
  'Blister Line 1 Floorplan Configuration was changed by Adriana Novak on 2026-11-26 at 02:41 UTC since you opened it. Save yours over that change, or load the saved configuration to start from it.';

/**
 * The API as another manager leaves it: `server.plans` is the floor-plan list, `server.version`
 * and `server.configuration` the saved configuration; a save for a floor plan that is no longer
 * the line's, or of another version, is refused as the server refuses it.
 */
async function serve() {
  const images: Record<string, Blob> = {
    [`/api/floorplans/${oldPlan._id}.png`]: await png(1200, 750),
    // The replacement is square: its frame is 800 × 800.
    [`/api/floorplans/${newPlan._id}.png`]: await png(1000, 1000),
  };
  const server = {
    plans: [oldPlan],
    saves: [] as FloorplanConfigSave[],
    deletions: [] as unknown[],
    version: 1,
    configuration: savedConfiguration as FloorplanConfiguration | null,
    // What a refused save of another version is told.
    message: savedMeanwhile,
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), window.location.origin);
    const key = `${init?.method ?? 'GET'} ${pathname}`;
    if (key === 'GET /api/line-clearances') return json([line]);
    if (key === 'POST /api/logout') return json({});
    if (key === 'GET /api/floorplans') return json(server.plans);
    if (key === `GET /api/floorplan-configs/line-clearance/${lineId}`) {
      if (!server.configuration) return json({ message: 'Not found' }, 404, 'Not Found');
      return json({
        lineClearanceId: lineId,
        configuration: server.configuration,
        version: server.version,
      });
    }
    const image = images[pathname];
    if (image && key === `GET ${pathname}`) return new Response(image, { status: 200 });
    if (key === `DELETE /api/floorplans/${oldPlan._id}`) {
      server.deletions.push(JSON.parse(String(init?.body)));
      server.plans = [];
      return json({ message: 'Floor plan deleted' });
    }
    if (key === 'POST /api/floorplan-configs') {
      const body = JSON.parse(String(init?.body)) as FloorplanConfigSave;
      server.saves.push(body);
      const current = server.plans.find((candidate) => candidate.lineID === lineId);
      if (body.floorplanId !== current?._id) {
        return json(
          { message: 'body.floorplanId is not the floor plan of this line clearance' },
          400,
          'Bad Request',
        );
      }
      // As the server: a save naming no version replaces whatever is there.
      if (body.version !== undefined && body.version !== server.version) {
        return json({ message: server.message }, 409, 'Conflict');
      }
      server.version += 1;
      server.configuration = body.configuration;
      return json({
        lineClearanceId: lineId,
        configuration: body.configuration,
        version: server.version,
      });
    }
    return unexpectedRequest(key);
  });
  return server;
}

/** Another manager saves the line's configuration, adding Tag 2, while this page has it open. */
function otherManagerSaves(server: Awaited<ReturnType<typeof serve>>) {
  server.version += 1;
  server.configuration = {
    ...savedConfiguration,
    tags: [...savedConfiguration.tags, { x: 600, y: 250, name: 'Tag 2', color: '#3cb44b' }],
  };
}

async function show() {
  signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
  await render(
    <Router hook={memoryLocation({ path: '/floorplans' }).hook}>
      <FloorplanManagerPage />
    </Router>,
  );
}

const button = (name: string) => page.getByRole('button', { name, exact: true });

const REASON = 'Tags moved after the line was refitted';

/**
 * Step 1 to step 4 for the line, its floor plan calibrated as saved; the reason for replacing the
 * saved configuration given unless `reason` is false.
 */
async function reachReview({ reason = true } = {}) {
  await userEvent.selectOptions(
    page.getByLabelText('Line clearance', { exact: true }),
    'Blister Line 1',
  );
  await userEvent.click(button('Continue to Configuration'));
  await userEvent.click(button('Continue to Calibration'));
  await expect.element(button('Review & Save Configuration')).toBeEnabled();
  await userEvent.click(button('Review & Save Configuration'));
  await expect.element(button('Save Configuration')).toBeVisible();
  if (reason) await userEvent.fill(page.getByLabelText('Reason for change'), REASON);
}

beforeEach(async () => {
  await page.viewport(1280, 900);
});

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/floorplans', () => {
  it('on a new system says to create a line clearance first, not that the role cannot edit', async () => {
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), window.location.origin);
      if (pathname === '/api/line-clearances' || pathname === '/api/floorplans') return json([]);
      return unexpectedRequest(`GET ${pathname}`);
    });
    await show();
    await expect
      .element(page.getByText(/^There is no line clearance yet\. Create one first/))
      .toBeVisible();
    expect(page.getByText(/^Your role can look at this floor plan/).query()).toBeNull();
  });

  it('has the breadcrumb bar: back to the dashboard, and Floorplan Manager (spec §2)', async () => {
    await serve();
    await show();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect
      .element(breadcrumb.getByRole('button', { name: 'Back to Admin Dashboard' }))
      .toBeVisible();
    await expect.element(breadcrumb.getByText('Floorplan Manager')).toBeVisible();
  });

  it('asks why before replacing the saved configuration, and sends the reason with the save', async () => {
    const server = await serve();
    await show();
    await reachReview({ reason: false });
    await userEvent.click(button('Save Configuration'));
    const field = page.getByLabelText('Reason for change');
    await expect.element(field).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(page.getByText(/^Please give the reason for changing this floor-plan configuration/))
      .toBeVisible();
    expect(server.saves).toEqual([]);

    await userEvent.fill(field, ` ${REASON} `);
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    expect(server.saves.map((save) => save.reason)).toEqual([REASON]);

    // The next change starts with an empty reason.
    await userEvent.click(button('Back to Floorplan Selection'));
    await userEvent.click(button('Continue to Calibration'));
    await userEvent.click(button('Review & Save Configuration'));
    await expect.element(page.getByLabelText('Reason for change')).toHaveValue('');
  });

  it('deletes a floor plan after the confirmation and a reason, with the spec’s alert', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const server = await serve();
    await show();
    await userEvent.selectOptions(
      page.getByLabelText('Line clearance', { exact: true }),
      'Blister Line 1',
    );
    await userEvent.click(button('Continue to Configuration'));
    await userEvent.click(page.getByRole('button', { name: /^Delete Floorplan/ }));
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete this floorplan? This action cannot be undone.',
    );
    const dialog = page.getByRole('dialog', { name: 'Why is this floor plan deleted?' });
    await userEvent.fill(dialog.getByLabelText('Reason (required)'), 'Hall rebuilt last week');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(alert).toHaveBeenCalledExactlyOnceWith('Floorplan deleted successfully!');
    expect(server.deletions).toEqual([{ reason: 'Hall rebuilt last week' }]);
    await expect.element(button('Continue to Calibration')).toBeDisabled();
  });

  it('says in words that the floor plan was replaced meanwhile, and opens the new one with the placed items', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();

    // Another manager replaces the line's floor plan while this calibration is open.
    server.plans = [newPlan];
    await userEvent.click(button('Save Configuration'));
    const notice = page.getByRole('alert');
    await expect.element(notice).toHaveTextContent(/The floor plan was replaced/);
    await expect
      .element(notice)
      .toHaveTextContent(/new floor plan for Blister Line 1 since this calibration was opened/);
    expect(alert).toHaveBeenCalledWith(
      'Save failed: Bad Request (the floor plan of Blister Line 1 was replaced since this calibration was opened)',
    );
    expect(server.saves.map((save) => save.floorplanId)).toEqual([oldPlan._id]);
    // No second try of what cannot be saved; the export stays.
    expect(button('Save Configuration').query()).toBeNull();
    await expect.element(button('Export Config')).toBeVisible();

    await userEvent.click(notice.getByRole('button', { name: 'Open the current floor plan' }));
    await expect.element(page.getByText('1000 × 1000 px')).toBeVisible();
    await expect.element(button('Review & Save Configuration')).toBeEnabled();
    await userEvent.click(button('Review & Save Configuration'));
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    const last = server.saves.at(-1);
    expect(last?.floorplanId).toBe(newPlan._id);
    // The tag placed on the old plan, carried over to the new plan's frame.
    expect(last?.configuration.displaySize).toEqual({ width: 800, height: 800 });
    expect(last?.configuration.tags).toMatchObject([{ name: 'Tag 1', x: 400, y: 400 }]);
  });

  it('keeps the work after another manager’s save, says who and when where Save was, and sends nothing until asked', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    // The work on screen: Tag 1 given a QR code.
    await userEvent.click(button('Give codes to tags without one'));

    otherManagerSaves(server);
    await userEvent.click(button('Save Configuration'));
    const notice = page.getByRole('alert');
    await expect
      .element(notice)
      .toHaveTextContent(
        'The saved configuration of Blister Line 1 was changed by Adriana Novak on 2026-11-26 at 02:41 UTC, after this page loaded it, so nothing was saved.',
      );
    // The spec's alert (§8), the server's words unchanged.
    expect(alert).toHaveBeenCalledExactlyOnceWith(`Save failed: Conflict (${savedMeanwhile})`);
    await expect.element(notice).toHaveFocus();
    // The work stays: one tag, with its new code, and no plain Save to press.
    await expect.element(page.getByRole('region', { name: 'Summary' })).toHaveTextContent(/Tags1/);
    expect(button('Save Configuration').query()).toBeNull();

    // Back to the calibration and on to the review again: still no plain Save.
    await userEvent.click(button('Back to Calibration'));
    await userEvent.click(button('Review & Save Configuration'));
    await expect.element(notice).toBeVisible();
    expect(button('Save Configuration').query()).toBeNull();
    expect(server.saves.map((save) => save.version)).toEqual([1]);

    // By keyboard: the two choices follow the notice in Tab order.
    notice.element().focus();
    await userEvent.tab();
    await expect.element(button('Load the saved configuration')).toHaveFocus();
    await userEvent.tab();
    await expect.element(button('Save mine over it')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    // Sent at the version now stored, which the server accepts: the user's configuration.
    expect(server.saves.map((save) => save.version)).toEqual([1, 2]);
    expect(server.configuration?.tags).toHaveLength(1);
    expect(server.configuration?.tags[0]?.qrCode).toMatch(/^BLISTER-LINE-1-T1-/);
  });

  it('a line’s first save does not replace one another manager saved meanwhile', async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    server.configuration = null;
    server.version = 0;
    await show();
    await reachReview({ reason: false });
    // Nothing saved: no reason to give.
    expect(page.getByLabelText('Reason for change').query()).toBeNull();
    otherManagerSaves(server);
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Save mine over it')).toBeVisible();
    // Refused: the other manager's configuration is still the one stored.
    expect(server.saves.map((save) => save.version)).toEqual([0]);
    expect(server.version).toBe(1);
  });

  it('loads the saved configuration only once its in-app confirmation is accepted', async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const confirm = vi.spyOn(window, 'confirm');
    const server = await serve();
    await show();
    await reachReview();
    otherManagerSaves(server);
    await userEvent.click(button('Save Configuration'));
    const load = page
      .getByRole('alert')
      .getByRole('button', { name: 'Load the saved configuration' });
    const dialog = page.getByRole('dialog', { name: 'Load the saved configuration' });

    await userEvent.click(load);
    await expect
      .element(dialog)
      .toHaveAccessibleDescription(
        'Discard your changes and load the saved configuration? Export Config first to keep a copy of yours.',
      );
    // Cancel has the focus; Escape closes it as Cancel does: the work and the notice stay.
    await expect.element(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(load).toHaveFocus();
    await expect.element(page.getByRole('region', { name: 'Summary' })).toHaveTextContent(/Tags1/);
    await userEvent.click(load);
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await expect.element(load).toBeVisible();
    await expect.element(page.getByRole('region', { name: 'Summary' })).toHaveTextContent(/Tags1/);

    await userEvent.click(load);
    await userEvent.click(dialog.getByRole('button', { name: 'Load the saved configuration' }));
    expect(confirm).not.toHaveBeenCalled();
    // The calibrator opens the other manager's configuration: their Tag 2 is on the plan.
    await expect
      .element(page.getByRole('heading', { level: 2 }))
      .toHaveTextContent('Points of Interest');
    await expect.element(page.getByRole('button', { name: /^Tag 2, tag at/ })).toBeVisible();
    await userEvent.click(button('Review & Save Configuration'));
    await expect.element(page.getByRole('region', { name: 'Summary' })).toHaveTextContent(/Tags2/);
    expect(page.getByRole('alert').query()).toBeNull();
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    expect(server.saves.map((save) => save.version)).toEqual([1, 2]);
  });

  it('refuses again when a third save comes first, and fits a 390 px phone', async () => {
    await page.viewport(390, 844);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    otherManagerSaves(server);
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Save mine over it')).toBeVisible();
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);

    // Someone else saves before the user's choice: the cycle repeats with the new who and when.
    server.version += 1;
    server.message = savedMeanwhile.replace('Adriana Novak', 'Jonas Berg');
    await userEvent.click(button('Save mine over it'));
    await expect.element(page.getByRole('alert')).toHaveTextContent(/changed by Jonas Berg on/);
    await expect.element(page.getByRole('alert')).toHaveFocus();
    expect(alert).toHaveBeenLastCalledWith(`Save failed: Conflict (${server.message})`);
    expect(server.saves.map((save) => save.version)).toEqual([1, 2]);

    await userEvent.click(button('Save mine over it'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    expect(server.saves.map((save) => save.version)).toEqual([1, 2, 3]);
  });

  it('says the configuration changed without naming who when the server does not', async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    otherManagerSaves(server);
    server.message =
      'Blister Line 1 Floorplan Configuration was changed since you opened it. Save yours over that change, or load the saved configuration to start from it.';
    await userEvent.click(button('Save Configuration'));
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(
        /^Not saved: the configuration was changed meanwhileThe saved configuration of Blister Line 1 was changed after this page loaded it, so nothing was saved\./,
      );
  });

  it('says when the floor plan was deleted meanwhile, and leads back to the upload', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    server.plans = [];
    await userEvent.click(button('Save Configuration'));
    const notice = page.getByRole('alert');
    await expect.element(notice).toHaveTextContent(/The floor plan was deleted/);
    expect(alert).toHaveBeenCalledWith(
      'Save failed: Bad Request (the floor plan of Blister Line 1 was deleted since this calibration was opened)',
    );
    await expect.element(button('Export Config')).toBeVisible();
    await userEvent.click(notice.getByRole('button', { name: 'Back to Upload' }));
    await expect.element(page.getByText('No floor plans yet')).toBeVisible();
  });

  it('warns by name about a tag without a QR code, and gives it one on request', async () => {
    const server = await serve();
    await show();
    await reachReview();
    const notice = page.getByRole('region', { name: 'QR codes' });
    await expect
      .element(notice)
      .toHaveTextContent(
        'Tag 1 has no QR code: the operator’s phone cannot scan it, so every inspection will flag it as not scanned unless the analysed path passes right by it.',
      );
    await userEvent.click(notice.getByRole('button', { name: 'Give codes to tags without one' }));
    await expect.element(notice).not.toBeInTheDocument();
    const given = page.getByText('QR codes given to Tag 1. Save the configuration to keep them.');
    await expect.element(given).toHaveFocus();

    // Not saved yet: its label says so.
    await userEvent.click(button('Print QR labels'));
    const sheet = page.getByRole('dialog', { name: 'QR labels: Blister Line 1' });
    await expect.element(sheet).toHaveTextContent(/One code on these labels is not saved yet/);
    await userEvent.click(sheet.getByRole('button', { name: 'Close' }));

    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    const code = server.saves.at(-1)?.configuration.tags[0]?.qrCode;
    expect(code).toMatch(/^BLISTER-LINE-1-T1-[2-9A-HJKMNP-TV-Z]{5}$/);

    // The configured floor plan's card prints the saved tags' labels.
    await userEvent.click(button('Back to Floorplan Selection'));
    await userEvent.click(button('Print QR labels'));
    await expect
      .element(sheet.getByRole('listitem'))
      .toHaveTextContent(`Tag 1Blister Line 1${code}`);
    expect(sheet.getByText(/not saved yet/).query()).toBeNull();
  });

  it('keeps the server’s words for a refusal with another reason', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    await show();
    await reachReview();
    // The line's floor plan is unchanged: the refusal has another reason.
    expect(server.plans).toEqual([oldPlan]);
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST'
        ? Promise.resolve(
            json({ message: 'body.configuration.tags/0/name is too long' }, 400, 'Bad Request'),
          )
        : original(input, init),
    );
    await userEvent.click(button('Save Configuration'));
    await vi.waitFor(() =>
      expect(alert).toHaveBeenCalledWith(
        'Save failed: Bad Request (body.configuration.tags/0/name is too long)',
      ),
    );
    expect(page.getByRole('alert').query()).toBeNull();
    await expect.element(button('Save Configuration')).toBeVisible();
  });
});

describe('/floorplans with work not saved (browser history, as in the app)', () => {
  // The test page's own address, given back when done.
  const testPage = window.location.href;
  afterEach(() => {
    history.replaceState(null, '', testPage);
  });

  /** The page at /floorplans under the toolbar, beside a link; any other path shows 'Elsewhere'. */
  async function showRouted() {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    await render(
      <Router>
        <Toolbar />
        <Link href="/reports">Reports</Link>
        <Switch>
          <Route path="/floorplans">
            <FloorplanManagerPage />
          </Route>
          <Route>
            <h1>Elsewhere</h1>
          </Route>
        </Switch>
      </Router>,
    );
  }

  /** Step 3 for the line, its saved Tag 1 shown; then Tag 2 placed 50 px right of the middle. */
  async function placeTag() {
    await userEvent.selectOptions(
      page.getByLabelText('Line clearance', { exact: true }),
      'Blister Line 1',
    );
    await userEvent.click(button('Continue to Configuration'));
    await userEvent.click(button('Continue to Calibration'));
    await expect.element(page.getByRole('heading', { name: 'Tags (1)' })).toBeVisible();
    await expect.poll(unloadAsks).toBe(false);
    await userEvent.click(button('Add Tag'));
    await expect.element(page.getByRole('application', { name: 'Floor plan' })).toHaveFocus();
    await userEvent.keyboard(
      '{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}{Enter}',
    );
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();
    // The guard is in place once the calibrator's configuration has reached the wizard.
    await expect.poll(unloadAsks).toBe(true);
  }

  /** Whether a reload or a closed tab would get the browser's 'Leave site?' prompt now. */
  function unloadAsks(): boolean {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  }

  const leaveDialog = () => page.getByRole('dialog', { name: 'Leave without saving?' });

  it('asks before a link or the breadcrumb leaves a placed tag: Stay keeps it, Leave goes', async () => {
    await serve();
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await placeTag();

    await userEvent.click(button('Back to Admin Dashboard'));
    await expect
      .element(leaveDialog())
      .toHaveTextContent(/placed or changed on this floor plan are not saved/);
    expect(location.pathname).toBe('/floorplans');
    await expect.element(leaveDialog().getByRole('button', { name: 'Stay' })).toHaveFocus();
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Stay' }));
    await expect.element(leaveDialog()).not.toBeInTheDocument();
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();
    expect(location.pathname).toBe('/floorplans');

    await userEvent.click(page.getByRole('link', { name: 'Reports' }));
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Leave without saving' }));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(location.pathname).toBe('/reports');
    expect(unloadAsks()).toBe(false);
  });

  it('asks before the browser’s Back leaves a placed tag (Navigation API)', async () => {
    await serve();
    history.replaceState(null, '', '/lc-manager');
    history.pushState(null, '', '/floorplans');
    await showRouted();
    await placeTag();
    const previous = navigation.entries()[(navigation.currentEntry?.index ?? 0) - 1];
    // Back as the browser announces it to a top-level page it lets cancel it (this test runs in
    // an iframe, where Chromium does not).
    const back = () => {
      const event = new Event('navigate', { cancelable: true });
      Object.assign(event, { navigationType: 'traverse', destination: previous });
      navigation.dispatchEvent(event);
      return event.defaultPrevented;
    };

    expect(back()).toBe(true);
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Stay' }));
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();
    expect(location.pathname).toBe('/floorplans');

    expect(back()).toBe(true);
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Leave without saving' }));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(location.pathname).toBe('/lc-manager');
  });

  /** The upload's XMLHttpRequest: each request sent is kept, and answered with `plan` stored. */
  function fakeUpload(server: Awaited<ReturnType<typeof serve>>, plan: Floorplan) {
    const sent: FormData[] = [];
    class Upload {
      status = 0;
      statusText = '';
      responseText = '';
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      open = () => undefined;
      setRequestHeader = () => undefined;
      send(form: FormData) {
        sent.push(form);
        server.plans = [plan];
        Object.assign(this, {
          status: 201,
          statusText: 'Created',
          responseText: JSON.stringify(plan),
        });
        setTimeout(() => this.onload?.());
      }
    }
    vi.stubGlobal('XMLHttpRequest', Upload);
    return sent;
  }

  it('asks before an upload at step 1 drops a placed tag: Cancel uploads nothing and keeps it', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    const sent = fakeUpload(server, newPlan);
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await placeTag();
    await userEvent.click(button('Back'));
    await userEvent.click(button('Back'));
    const image = new File([await png(1000, 1000)], 'plan.png', { type: 'image/png' });
    const chooseImage = () =>
      userEvent.upload(page.getByLabelText('Floor plan image (PNG, JPG, JPEG, GIF)'), image);
    await chooseImage();
    const ask = page.getByRole('dialog', { name: 'Upload without saving?' });

    await userEvent.click(button('Replace Floorplan'));
    await expect
      .element(ask)
      .toHaveAccessibleDescription(
        'The tags, hot zones and cameras placed or changed on the floor plan of Blister Line 1 are not saved, and uploading an image loses them: the wizard goes on with the new floor plan. To keep them, cancel and save the configuration at Review & Save first (an exported file is not saved).',
      );
    await expect.element(ask.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(ask).not.toBeInTheDocument();
    expect(sent).toHaveLength(0);
    expect(alert).not.toHaveBeenCalled();
    // Everything as it was: the same plan, Tag 2 still placed and still not saved.
    await userEvent.click(button('Continue to Configuration'));
    await userEvent.click(button('Continue to Calibration'));
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();
    expect(unloadAsks()).toBe(true);

    await userEvent.click(button('Back'));
    await userEvent.click(button('Back'));
    await chooseImage();
    await userEvent.click(button('Replace Floorplan'));
    await userEvent.click(ask.getByRole('button', { name: 'Upload without saving' }));
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('Floorplan uploaded successfully!'));
    expect(sent).toHaveLength(1);
    await expect.element(button('Continue to Calibration')).toBeEnabled();
    await expect.poll(unloadAsks).toBe(false);
  });

  it('uploads at once when no work is unsaved', async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const server = await serve();
    const sent = fakeUpload(server, newPlan);
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await userEvent.selectOptions(
      page.getByLabelText('Line clearance', { exact: true }),
      'Blister Line 1',
    );
    await userEvent.upload(
      page.getByLabelText('Floor plan image (PNG, JPG, JPEG, GIF)'),
      new File([await png(1000, 1000)], 'plan.png', { type: 'image/png' }),
    );
    await userEvent.click(button('Replace Floorplan'));
    await expect.poll(() => sent.length).toBe(1);
    expect(page.getByRole('dialog').query()).toBeNull();
  });

  it('asks before Log out drops a placed tag, and signs out only when told to', async () => {
    await serve();
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await placeTag();
    const logOut = async () => {
      await userEvent.click(page.getByRole('button', { name: 'PD Pat Doe: account menu' }));
      await userEvent.click(page.getByRole('menuitem', { name: 'Log out' }));
    };

    await logOut();
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Stay' }));
    await expect.element(leaveDialog()).not.toBeInTheDocument();
    expect(session.loggedIn).toBe(true);
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();

    await logOut();
    await userEvent.click(leaveDialog().getByRole('button', { name: 'Leave without saving' }));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(session.loggedIn).toBe(false);
    expect(location.pathname).toBe('/');
  });

  it('keeps the work through the wizard’s own steps without asking, and asks no more once it is undone', async () => {
    await serve();
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await placeTag();
    await userEvent.click(button('Review & Save Configuration'));
    await userEvent.click(button('Back to Calibration'));
    await userEvent.click(button('Back'));
    await userEvent.click(button('Back'));
    await userEvent.click(button('Continue to Configuration'));
    await userEvent.click(button('Continue to Calibration'));
    await expect.element(page.getByRole('heading', { name: 'Tags (2)' })).toBeVisible();
    expect(leaveDialog().query()).toBeNull();

    // Removed again, the configuration is the saved one: nothing to lose.
    await userEvent.click(button('Remove Tag 2'));
    await expect.element(page.getByRole('heading', { name: 'Tags (1)' })).toBeVisible();
    await expect.poll(unloadAsks).toBe(false);
    await userEvent.click(button('Back to Admin Dashboard'));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
  });

  it('counts an exported configuration as not saved, and asks nothing once it is saved', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const server = await serve();
    history.replaceState(null, '', '/floorplans');
    await showRouted();
    await placeTag();
    await userEvent.click(button('Review & Save Configuration'));
    await userEvent.click(button('Export Config'));
    expect(unloadAsks()).toBe(true);

    await userEvent.fill(page.getByLabelText('Reason for change'), REASON);
    await userEvent.click(button('Save Configuration'));
    await expect.element(button('Configure Another Floorplan')).toBeVisible();
    expect(server.saves).toHaveLength(1);
    await expect.poll(unloadAsks).toBe(false);
    await userEvent.click(button('Back to Admin Dashboard'));
    await expect.element(page.getByRole('heading', { name: 'Elsewhere' })).toBeVisible();
    expect(location.pathname).toBe('/admin');
  });
});
