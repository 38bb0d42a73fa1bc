// Registering a device: a typed code must not be blank, and a code the camera read waits for the
// operator to confirm it (the camera is a canvas showing a QR code, as a phone would see a label).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { drawQr } from '../../../tests/support/draw-qr.ts';
import { myLine } from '../../../tests/web/my-line-fixture.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { Device, MyLine } from '../../types/api.ts';
import { DevicesSection } from './devices-section.tsx';
// As the dashboard page loads it.
import './operator-dashboard.css';

let painting: ReturnType<typeof setInterval> | undefined;

afterEach(async () => {
  clearInterval(painting);
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  toasts.items = [];
});

/** A rear camera showing `code` as a QR code, or an empty scene when `code` is null. */
function cameraShowing(code: string | null) {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  // Painted again and again: a stream hands over frames only then.
  painting = setInterval(() => {
    const context = canvas.getContext('2d');
    if (!context) return;
    context.fillStyle = '#808080';
    context.fillRect(0, 0, 640, 480);
    if (code) {
      drawQr(context as unknown as OffscreenCanvasRenderingContext2D, {
        text: code,
        x: 160,
        y: 80,
        module: 8,
      });
    }
  }, 100);
  vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(canvas.captureStream(10));
}

const phone: Device = {
  _id: 'd'.repeat(24),
  name: 'PHONE-7',
  type: 'camera',
  status: 'active',
  qrCode: 'PHONE-7',
  version: 1,
};

const lineId = 'a'.repeat(24);
const blisterLine = myLine(lineId);
/** GET /api/my/lines/{id} of Blister Line 1: its tag, and a tag of a line it is not. */
const blisterDetail = {
  line: blisterLine.line,
  checklist: {
    floorplanConfigId: 'f'.repeat(24),
    tags: [{ index: 0, x: 1, y: 1, name: 'Thermoformer front', qrCode: 'LC1-TAG-01' }],
    hotZones: [],
  },
  otherLineTags: [{ qrCode: 'LC2-TAG-01', lineName: 'Bottling Line 2' }],
  minVideoSeconds: 30,
};

async function openDialog(
  routes: Parameters<typeof fakeFetch>[0] = { 'POST /api/devices': { status: 201, body: phone } },
  lines: MyLine[] = [],
) {
  const { fetchImpl, calls } = fakeFetch(routes);
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return fetchImpl(input, init);
  });
  signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
  await render(<DevicesSection devices={[]} lines={lines} loading={false} reload={() => {}} />);
  await page.getByRole('button', { name: 'Register Device' }).click();
  return { calls, bodies };
}

describe('registering a device', () => {
  it('names the missing code under the field instead of doing nothing', async () => {
    cameraShowing(null);
    const { calls } = await openDialog();
    const code = page.getByLabelText('Or type the device code');
    await code.fill('   ');
    await page.getByRole('button', { name: 'Register typed code' }).click();
    await expect.element(code).toHaveFocus();
    await expect.element(code).toHaveAttribute('aria-invalid', 'true');
    await expect
      .element(code)
      .toHaveAccessibleDescription(
        'Device code is required: type the code printed on the device label, or scan it',
      );
    expect(calls).toEqual([]);
    // Announced too: Enter typed in the field leaves the focus where it was, so moving it says nothing.
    await code.fill('');
    await userEvent.keyboard('{Enter}');
    await expect
      .element(page.getByRole('dialog').getByRole('alert'))
      .toHaveTextContent('Device code is required');

    await code.fill('PHONE-7');
    await expect.element(code).not.toHaveAttribute('aria-invalid');
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(calls).toEqual(['POST /api/devices']));
  });

  it('shows a scanned code and registers it only when the operator confirms', async () => {
    cameraShowing('PHONE-7');
    const { calls, bodies } = await openDialog();
    await expect.element(page.getByRole('status')).toHaveTextContent('Scanned code: PHONE-7');
    // Nothing is registered while the code is in view: the operator decides.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls).toEqual([]);

    // Scan again: the code is read again (it is still in view), and still waits.
    await page.getByRole('button', { name: 'Scan again' }).click();
    await expect.element(page.getByRole('status')).toHaveTextContent('Scanned code: PHONE-7');
    expect(calls).toEqual([]);

    await page.getByRole('button', { name: 'Register scanned device PHONE-7' }).click();
    await vi.waitFor(() => expect(bodies).toEqual([{ qrCode: 'PHONE-7' }]));
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  });
});

/** Types `text` as the device code and taps Register typed code; answers the field. */
async function registerTyped(text: string) {
  const code = page.getByLabelText('Or type the device code');
  await code.fill(text);
  await page.getByRole('button', { name: 'Register typed code' }).click();
  return code;
}

/** The scanned code is said to be no device label (`why`): Scan again, and no Register. */
async function scannedCodeRefused(why: string) {
  const dialog = page.getByRole('dialog', { name: 'Register Device' });
  await expect.element(dialog.getByRole('status')).toHaveTextContent(why);
  expect(dialog.getByRole('button', { name: /^Register scanned device/ }).query()).toBeNull();
  await expect.element(dialog.getByRole('button', { name: 'Scan again' })).toBeVisible();
}

describe('a device code the server would refuse', () => {
  it('is named under the field in words before anything is sent', async () => {
    cameraShowing(null);
    const { calls } = await openDialog();
    const code = await registerTyped('📱 phone');
    await expect.element(code).toHaveFocus();
    await expect
      .element(code)
      .toHaveAccessibleDescription('A device code may contain only letters, digits and . _ : -');
    await registerTyped('X'.repeat(500));
    await expect
      .element(code)
      .toHaveAccessibleDescription('A device code must be at most 100 characters (it has 500)');
    expect(calls).toEqual([]);
    expect(toasts.items).toEqual([]);
  });

  it('refused by the server anyway: its refusal in words under the field, not in a toast', async () => {
    cameraShowing(null);
    await openDialog({
      'POST /api/devices': {
        status: 400,
        body: { message: 'body.qrCode.type must be one of camera, sensor, monitor, controller' },
      },
    });
    const code = await registerTyped('{"serial": "SN-7", "type": "toaster"}');
    await expect
      .element(code)
      .toHaveAccessibleDescription(
        "The label's device type must be one of camera, sensor, monitor, controller",
      );
    expect(toasts.items).toEqual([]);
  });
});

describe('a line checkpoint’s code', () => {
  const routes = {
    [`GET /api/my/lines/${lineId}`]: { body: blisterDetail },
    'POST /api/devices': { status: 201, body: phone },
  };

  it('scanned: is named as the checkpoint at once, with no Register button', async () => {
    cameraShowing('LC1-TAG-01');
    const { calls } = await openDialog(routes, [blisterLine]);
    await scannedCodeRefused(
      "This is the checkpoint 'Thermoformer front' of Blister Line 1, not a device label: scan the label on the phone or tablet.",
    );
    expect(calls).toEqual([`GET /api/my/lines/${lineId}`]);
  });

  it('typed, of another line: is named under the field, unsent', async () => {
    cameraShowing(null);
    const { calls } = await openDialog(routes, [blisterLine]);
    await vi.waitFor(() => expect(calls).toEqual([`GET /api/my/lines/${lineId}`]));
    const code = await registerTyped(' LC2-TAG-01 ');
    await expect
      .element(code)
      .toHaveAccessibleDescription(
        'This is a checkpoint of Bottling Line 2, not a device label: scan the label on the phone or tablet.',
      );
    expect(calls).toEqual([`GET /api/my/lines/${lineId}`]);
  });

  it('a scanned code that is no device serial: said at once, with no Register button', async () => {
    cameraShowing('https://example.com/device/7');
    await openDialog();
    await scannedCodeRefused(
      'This is not a device label: a device code may contain only letters, digits and . _ : -',
    );
  });
});

describe('the Register Device dialog’s buttons', () => {
  it('are named apart, and the scanned code’s two have a gap between them', async () => {
    cameraShowing('PHONE-7');
    await openDialog();
    const dialog = page.getByRole('dialog', { name: 'Register Device' });
    const scannedButton = dialog.getByRole('button', { name: 'Register scanned device PHONE-7' });
    await expect.element(scannedButton).toHaveTextContent('Register scanned device');
    await expect.element(dialog.getByRole('button', { name: 'Register typed code' })).toBeVisible();
    const first = scannedButton.element().getBoundingClientRect();
    const again = dialog
      .getByRole('button', { name: 'Scan again' })
      .element()
      .getBoundingClientRect();
    // Side by side or one above the other, they never touch.
    const apart = Math.max(again.left - first.right, again.top - first.bottom);
    expect(apart).toBeGreaterThanOrEqual(8);
  });
});

describe('the Register Device dialog by keyboard', () => {
  it('wraps Tab from its last control to its first: the camera preview is no Tab stop', async () => {
    cameraShowing(null);
    await openDialog();
    const dialog = page.getByRole('dialog', { name: 'Register Device' });
    await expect.element(dialog).toBeVisible();
    const close = dialog.getByRole('button', { name: 'Close' }).element() as HTMLElement;
    close.focus();
    await userEvent.keyboard('{Tab}');
    await expect.element(dialog.getByLabelText('Or type the device code')).toHaveFocus();
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(close);
  });
});
