// Registering a device: a typed code must not be blank, and a code the camera read waits for the
// operator to confirm it (the camera is a canvas showing a QR code, as a phone would see a label).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { drawQr } from '../../../tests/support/draw-qr.ts';
import { cleanup, fakeFetch, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import { toasts } from '../../stores/toasts.ts';
import type { Device } from '../../types/api.ts';
import { DevicesSection } from './devices-section.tsx';

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

async function openDialog() {
  const { fetchImpl, calls } = fakeFetch({ 'POST /api/devices': { status: 201, body: phone } });
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body) bodies.push(JSON.parse(String(init.body)));
    return fetchImpl(input, init);
  });
  signIn('token', { id: 'u1', name: 'Olga', email: 'o@example.com', roles: ['operator'] });
  await render(<DevicesSection devices={[]} loading={false} reload={() => {}} />);
  await page.getByRole('button', { name: 'Register Device' }).click();
  return { calls, bodies };
}

describe('registering a device', () => {
  it('names the missing code under the field instead of doing nothing', async () => {
    cameraShowing(null);
    const { calls } = await openDialog();
    const code = page.getByLabelText('Or type the device code');
    await code.fill('   ');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
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

    await page.getByRole('button', { name: 'Register PHONE-7' }).click();
    await vi.waitFor(() => expect(bodies).toEqual([{ qrCode: 'PHONE-7' }]));
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
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
