import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../../tests/web/render.tsx';
import { decodeQrPixels, stopQrWorker } from '../../../lib/capture/qr-client.ts';
import type { Tag } from '../../../types/api.ts';
import { PrintLabels } from './label-sheet.tsx';

const tags: Tag[] = [
  { x: 10, y: 10, name: 'Tag 1', qrCode: 'BLISTER-LINE-1-T1-K7QX2' },
  { x: 20, y: 20, name: 'Tag 2' },
  { x: 30, y: 30, name: 'Gate', qrCode: ' gate/north?door=2 ' },
];

/**
 * What the operator's phone reads off a label: the label's image drawn `size` px wide in a
 * 1280 × 720 grey camera frame, decoded by the capture decoder (src/lib/capture, zxing-wasm).
 */
async function scan(image: HTMLImageElement, size: number): Promise<string[]> {
  await image.decode();
  const canvas = new OffscreenCanvas(1280, 720);
  const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
  context.fillStyle = '#6b7280';
  context.fillRect(0, 0, 1280, 720);
  context.drawImage(image, 500, 250, size, size);
  const frame = context.getImageData(0, 0, 1280, 720);
  return (await decodeQrPixels({ width: 1280, height: 720, pixels: frame.data.buffer })).codes;
}

/** Whether a rule of a print stylesheet hides `element` (display: none). */
function hiddenInPrint(element: Element): boolean {
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (!(rule instanceof CSSMediaRule) || rule.media.mediaText !== 'print') continue;
      for (const inner of rule.cssRules) {
        if (
          inner instanceof CSSStyleRule &&
          inner.style.display === 'none' &&
          element.matches(inner.selectorText)
        ) {
          return true;
        }
      }
    }
  }
  return false;
}

const sheet = () => page.getByRole('dialog', { name: 'QR labels: Blister Line 1' });

beforeEach(async () => {
  await page.viewport(1280, 900);
});

afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
});

afterAll(() => stopQrWorker());

describe('Print QR labels', () => {
  it('shows one label per tag with a code, whose QR symbol reads as the code; the others as no code', async () => {
    await render(<PrintLabels lineName="Blister Line 1" tags={tags} />);
    await userEvent.click(page.getByRole('button', { name: 'Print QR labels' }));
    await expect.element(sheet()).toBeVisible();

    const labels = sheet().getByRole('list').first().getByRole('listitem');
    await expect
      .poll(() => labels.elements().map((label) => label.textContent))
      .toEqual([
        'Tag 1Blister Line 1BLISTER-LINE-1-T1-K7QX2',
        // Scans are matched trimmed (docs/capture.md): the label shows and encodes the trimmed code.
        'GateBlister Line 1gate/north?door=2',
      ]);
    const tag1 = sheet().getByRole('img', { name: 'QR code of Tag 1' });
    const gate = sheet().getByRole('img', { name: 'QR code of Gate' });
    await expect.element(tag1).toBeVisible();
    await expect.element(gate).toBeVisible();
    // A 1280 px camera frame at arm's length gives the label's 44 mm image about 88 px; 80 px reads.
    expect(await scan(tag1.element() as HTMLImageElement, 80)).toEqual(['BLISTER-LINE-1-T1-K7QX2']);
    expect(await scan(gate.element() as HTMLImageElement, 160)).toEqual(['gate/north?door=2']);

    await expect.element(sheet().getByText('Tags without a QR code (no label)')).toBeVisible();
    await expect
      .element(sheet().getByRole('listitem').filter({ hasText: 'Tag 2' }))
      .toHaveTextContent('Tag 2: no code');
  });

  it('prints the labels alone with window.print(), and gives the focus back on close', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const container = await render(
      <PrintLabels lineName="Blister Line 1" tags={tags} unsaved={1} />,
    );
    const trigger = page.getByRole('button', { name: 'Print QR labels' });
    await userEvent.click(trigger);
    await expect
      .element(sheet())
      .toHaveTextContent(/One code on these labels is not saved yet: save the configuration/);
    const printButton = sheet().getByRole('button', { name: 'Print', exact: true });
    await expect.element(printButton).toBeEnabled();
    await userEvent.click(printButton);
    expect(print).toHaveBeenCalledOnce();

    // The print stylesheet hides the app and the overlay, and the sheet's own buttons and notes.
    const content = sheet().element();
    expect(content.parentElement).toBe(document.body);
    expect(hiddenInPrint(container)).toBe(true);
    const overlay = document.querySelector('.dialog-overlay');
    expect(overlay && hiddenInPrint(overlay)).toBe(true);
    expect(hiddenInPrint(content)).toBe(false);
    expect(hiddenInPrint(printButton.element())).toBe(false);
    expect(hiddenInPrint(printButton.element().closest('header') as Element)).toBe(true);
    for (const label of content.querySelectorAll('.qr-label')) {
      expect(hiddenInPrint(label)).toBe(false);
    }

    await userEvent.click(sheet().getByRole('button', { name: 'Close' }));
    await expect.element(sheet()).not.toBeInTheDocument();
    await expect.element(trigger).toHaveFocus();
  });

  it('has nothing to print when no tag has a code', async () => {
    await render(<PrintLabels lineName="Blister Line 1" tags={[tags[1] as Tag]} />);
    await userEvent.click(page.getByRole('button', { name: 'Print QR labels' }));
    await expect
      .element(sheet().getByText('No tag has a QR code yet: there is nothing to print.'))
      .toBeVisible();
    await expect
      .element(sheet().getByRole('button', { name: 'Print', exact: true }))
      .toBeDisabled();
  });
});
