import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render } from '../../../../tests/web/render.tsx';
import { palette } from '../../../lib/palette.ts';
import { toasts } from '../../../stores/toasts.ts';
import type { Floorplan, FloorplanConfiguration } from '../../../types/api.ts';
import { Calibrator } from './calibrator.tsx';
import { crossAnnounceDelay } from './placement-surface.tsx';

const floorplan: Floorplan = {
  _id: 'f00000000000000000000001',
  name: 'Floorplan',
  imagePath: '/api/floorplans/f00000000000000000000009.png',
  lineID: 'c00000000000000000000001',
  createdAt: '2026-11-03T09:15:00.000Z',
};

/** A 1200 × 750 PNG, drawn here: the calibrator shows it as 800 × 500. */
async function planImage(): Promise<Blob> {
  const canvas = new OffscreenCanvas(1200, 750);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D context');
  context.fillStyle = '#f8fafc';
  context.fillRect(0, 0, 1200, 750);
  context.strokeStyle = '#334155';
  context.strokeRect(30, 30, 1140, 690);
  return canvas.convertToBlob({ type: 'image/png' });
}

/** Serves the plan image; the first `failures` requests answer 500. */
async function serveImage(failures = 0): Promise<string[]> {
  const blob = await planImage();
  const requested: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    requested.push(String(input));
    if (requested.length <= failures) {
      return new Response('{"message":"storage unavailable"}', { status: 500 });
    }
    return new Response(blob, { status: 200, headers: { 'Content-Type': 'image/png' } });
  });
  return requested;
}

interface Shown {
  emitted: FloorplanConfiguration[];
  last: () => FloorplanConfiguration;
}

async function showCalibrator(
  options: {
    initial?: FloorplanConfiguration | null;
    saved?: FloorplanConfiguration | null;
    readOnly?: boolean;
  } = {},
): Promise<Shown> {
  const emitted: FloorplanConfiguration[] = [];
  await render(
    <Calibrator
      floorplan={floorplan}
      initial={options.initial ?? null}
      saved={options.saved ?? null}
      readOnly={options.readOnly ?? false}
      lineName="Blister Line 1"
      onChange={(configuration) => emitted.push(configuration)}
    />,
  );
  await expect.poll(() => emitted.length).toBe(1);
  const last = () => {
    const configuration = emitted.at(-1);
    if (!configuration) throw new Error('nothing emitted');
    return configuration;
  };
  return { emitted, last };
}

const surface = () => page.getByRole('application', { name: 'Floor plan' });
const button = (name: string) => page.getByRole('button', { name, exact: true });
const warnings = () =>
  toasts.items.filter((toast) => toast.severity === 'warn').map((toast) => toast.detail);

/**
 * A pointer lands within a pixel of where it was aimed (the plan's top edge is at a fractional
 * position); exact positions are checked with the keyboard, which moves in whole pixels.
 */
function expectNear(item: { x: number; y: number } | undefined, x: number, y: number) {
  expect(item).toBeDefined();
  expect(Math.abs((item?.x ?? Number.NaN) - x)).toBeLessThanOrEqual(1);
  expect(Math.abs((item?.y ?? Number.NaN) - y)).toBeLessThanOrEqual(1);
}

/** Clicks the plan at display pixels (the plan is drawn 1:1 at 800 px wide here). */
const clickPlan = (x: number, y: number) => userEvent.click(surface(), { position: { x, y } });

beforeEach(async () => {
  await page.viewport(1280, 900);
});

afterEach(async () => {
  await cleanup();
  toasts.items = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Calibrator', () => {
  it('emits the configuration once the image is ready, in an 800-wide frame', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    expect(last()).toEqual({
      floorplanImage: floorplan.imagePath,
      displaySize: { width: 800, height: 500 },
      hotZones: [],
      tags: [],
      cameras: [],
      coordinateSystem: {
        useSimpleMapping: true,
        sourceImageWidth: 1200,
        sourceImageHeight: 750,
        pixelsPerMeter: 50,
      },
    });
    await expect.element(page.getByText('1200 × 750 px')).toBeVisible();
    await expect.element(page.getByText('24.00 m × 15.00 m')).toBeVisible();
    const box = surface().element().getBoundingClientRect();
    expect([box.width, box.height]).toEqual([800, 500]);
  });

  it("places tags by click as 'Tag N' in palette colours, emitting each change once", async () => {
    await serveImage();
    const { emitted, last } = await showCalibrator();
    await userEvent.click(button('Add Tag'));
    await expect.element(button('Cancel Tag')).toBeVisible();
    await clickPlan(100, 120);
    await expect.poll(() => emitted.length).toBe(2);
    await clickPlan(300, 200);
    await expect.poll(() => emitted.length).toBe(3);
    expect(last().tags).toMatchObject([
      { name: 'Tag 1', color: palette[0] },
      { name: 'Tag 2', color: palette[1] },
    ]);
    expectNear(last().tags[0], 100, 120);
    expectNear(last().tags[1], 300, 200);
    // The mode stays on until cancelled.
    await userEvent.click(button('Cancel Tag'));
    await expect.element(button('Add Tag')).toBeVisible();
    await clickPlan(500, 300);
    expect(last().tags).toHaveLength(2);

    // Each name in the list is isolated from the position after it (a right-to-left name).
    expect(page.getByText('Tag 1', { exact: true }).element().tagName).toBe('BDI');
    await userEvent.click(button('Remove Tag 1'));
    await expect.poll(() => last().tags.map((tag) => tag.name)).toEqual(['Tag 2']);
    await userEvent.click(button('Add Camera'));
    await clickPlan(600, 400);
    await expect.poll(() => last().cameras).toHaveLength(1);
    expect(last().cameras[0]).toMatchObject({
      name: 'Camera 1',
      color: palette[0],
      type: 'standard',
    });
    expectNear(last().cameras[0], 600, 400);
    await clickPlan(700, 400);
    await expect
      .poll(() => last().cameras.map((camera) => camera.name))
      .toEqual(['Camera 1', 'Camera 2']);
    expect(emitted).toHaveLength(6);
  });

  it('warns, without blocking, when a tag or camera is within 30 px of another', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    await userEvent.click(button('Add Tag'));
    // The keyboard cross starts in the middle of the plan: (400, 250).
    await expect.element(surface()).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => last().tags).toHaveLength(1);
    await userEvent.click(button('Add Camera'));
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}{Enter}');
    await expect.poll(() => last().cameras).toHaveLength(1);
    expect(last().cameras[0]).toMatchObject({ x: 430, y: 250 });
    expect(warnings()).toEqual(['Camera 1 is within 30 px of Tag 1 (30 px apart).']);
    await expect
      .element(page.getByRole('status').filter({ hasText: 'Camera 1 placed at 430, 250' }))
      .toBeVisible();
    // 31 px from Camera 1 and 61 px from Tag 1: no warning.
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}{ArrowRight}');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => last().cameras).toHaveLength(2);
    expect(last().cameras[1]).toMatchObject({ x: 461, y: 250 });
    expect(warnings()).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    await expect.element(button('Add Camera')).toBeVisible();
  });

  it('takes a key pressed at once after a placing mode starts, before the cross is drawn', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    const plan = surface().element();
    // A fast typist's key can reach the plan before the render that places the cross: it
    // acts at the middle (400, 250), where that render puts the cross, instead of being lost.
    (button('Add Tag').element() as HTMLElement).click();
    await Promise.resolve();
    plan.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await expect.poll(() => last().tags).toHaveLength(1);
    expect(last().tags[0]).toMatchObject({ x: 400, y: 250 });
  });

  it('says where the keyboard’s cross is once it rests, not at every step', async () => {
    await serveImage();
    await showCalibrator();
    await userEvent.click(button('Add Tag'));
    await expect.element(surface()).toHaveFocus();
    const status = document.querySelector('.calibrator-status') as HTMLElement;
    const said: string[] = [];
    const observer = new MutationObserver(() => said.push(status.textContent ?? ''));
    observer.observe(status, { childList: true, characterData: true, subtree: true });
    // From the middle (400, 250): three steps right, then ten down.
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}');
    await expect.element(page.getByRole('status')).toHaveTextContent('Cross at 403, 260');
    observer.disconnect();
    expect(said).toEqual(['Cross at 403, 260']);
    // Enter says what it placed, and no late position replaces it.
    await userEvent.keyboard('{ArrowLeft}{Enter}');
    await expect.element(page.getByRole('status')).toHaveTextContent('Tag 1 placed at 402, 260');
    await new Promise((resolve) => setTimeout(resolve, crossAnnounceDelay + 200));
    await expect.element(page.getByRole('status')).toHaveTextContent('Tag 1 placed at 402, 260');
  });

  it('creates a hot zone only when larger than 20 px both ways, by drag or by keyboard', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    await userEvent.click(button('Add Hot Zone'));
    await expect.element(button('Cancel Hot Zone')).toBeVisible();
    await userEvent.dragAndDrop(surface(), surface(), {
      sourcePosition: { x: 300, y: 300 },
      targetPosition: { x: 310, y: 360 },
    });
    await expect
      .element(page.getByText('No hot zone created: drag more than 20 px in both directions.'))
      .toBeVisible();
    expect(last().hotZones).toEqual([]);
    await userEvent.dragAndDrop(surface(), surface(), {
      sourcePosition: { x: 160, y: 190 },
      targetPosition: { x: 100, y: 120 },
    });
    await expect.poll(() => last().hotZones).toHaveLength(1);
    const zone = last().hotZones[0];
    expect(zone).toMatchObject({ name: 'Hot Zone 1', color: palette[0], importance: 'medium' });
    expectNear(zone, 100, 120);
    expectNear({ x: zone?.width ?? 0, y: zone?.height ?? 0 }, 60, 70);

    // By keyboard, exactly: Enter at one corner and at the opposite one. The cross starts at
    // the middle (400, 250); 20 × 30 is refused, 21 × 21 is created.
    surface().element().focus();
    await userEvent.keyboard(
      '{Enter}{Shift>}{ArrowRight}{ArrowRight}{ArrowDown}{ArrowDown}{ArrowDown}{/Shift}{Enter}',
    );
    await expect
      .element(page.getByText('First corner at 400, 250', { exact: false }))
      .not.toBeInTheDocument();
    expect(last().hotZones).toHaveLength(1);
    await userEvent.keyboard(
      '{Enter}{Shift>}{ArrowRight}{ArrowRight}{ArrowDown}{ArrowDown}{/Shift}{ArrowRight}{ArrowDown}{Enter}',
    );
    await expect.poll(() => last().hotZones).toHaveLength(2);
    expect(last().hotZones[1]).toEqual({
      x: 420,
      y: 280,
      width: 21,
      height: 21,
      name: 'Hot Zone 2',
      color: palette[1],
      importance: 'medium',
    });
  });

  it('selects placed items with Tab, moves them with the arrow keys and deletes them', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    await userEvent.click(button('Add Tag'));
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => last().tags).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    await expect.element(surface()).toHaveFocus();
    await userEvent.tab();
    const tag = page.getByRole('button', { name: /^Tag 1, tag at/ });
    await expect.element(tag).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{Shift>}{ArrowDown}{/Shift}');
    await expect.poll(() => last().tags[0]).toMatchObject({ x: 401, y: 260 });
    await expect.element(page.getByText('Tag 1 moved to 401, 260')).toBeVisible();
    // Items never leave the plan.
    await userEvent.keyboard(`{Shift>}${'{ArrowLeft}'.repeat(41)}{/Shift}`);
    await expect.poll(() => last().tags[0]).toMatchObject({ x: 0, y: 260 });
    await userEvent.keyboard('{Delete}');
    await expect.poll(() => last().tags).toEqual([]);
    await expect.element(page.getByText('Tag 1 removed')).toBeVisible();
    await expect.element(surface()).toHaveFocus();
  });

  it('moves an item by dragging it', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    await userEvent.click(button('Add Camera'));
    await clickPlan(200, 200);
    await userEvent.click(button('Cancel Camera'));
    const camera = page.getByRole('button', { name: /^Camera 1, camera at/ });
    const before = last().cameras[0];
    await userEvent.dragAndDrop(camera, surface(), { targetPosition: { x: 260, y: 150 } });
    await expect.poll(() => last().cameras[0]?.x).not.toBe(before?.x);
    expectNear(last().cameras[0], 260, 150);
  });

  it('edits every field of a hot zone, refusing one of 20 px', async () => {
    await serveImage();
    const { last } = await showCalibrator({
      initial: {
        displaySize: { width: 800, height: 500 },
        hotZones: [{ x: 10, y: 10, width: 100, height: 60, name: 'Sealer', color: '#e6194b' }],
        tags: [],
        cameras: [],
        coordinateSystem: { pixelsPerMeter: 50 },
      },
    });
    await userEvent.click(button('Edit Sealer'));
    const dialog = page.getByRole('dialog', { name: 'Edit Hot Zone' });
    await userEvent.fill(dialog.getByLabelText('Width (px)'), '20');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(warnings()).toEqual(['A hot zone must be larger than 20 px in both directions']);
    await expect.element(dialog).toBeVisible();
    await userEvent.fill(dialog.getByLabelText('Name'), 'Sealing station');
    await userEvent.fill(dialog.getByLabelText('Description'), 'Foil offcuts collect here');
    await userEvent.selectOptions(dialog.getByLabelText('Importance'), 'critical');
    await userEvent.fill(dialog.getByLabelText('X (px)'), '40');
    await userEvent.fill(dialog.getByLabelText('Width (px)'), '120.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(last().hotZones).toEqual([
      {
        x: 40,
        y: 10,
        width: 120.5,
        height: 60,
        name: 'Sealing station',
        color: '#e6194b',
        description: 'Foil offcuts collect here',
        importance: 'critical',
      },
    ]);
  });

  it('edits a tag’s QR code and a camera’s type', async () => {
    await serveImage();
    const { last } = await showCalibrator({
      initial: {
        displaySize: { width: 800, height: 500 },
        hotZones: [],
        tags: [{ x: 50, y: 60, name: 'Gate', id: 4, status: 'active' }],
        cameras: [{ x: 70, y: 80, name: 'Dock' }],
        coordinateSystem: {},
      },
    });
    await userEvent.click(button('Edit Gate'));
    let dialog = page.getByRole('dialog', { name: 'Edit Tag' });
    await userEvent.fill(dialog.getByLabelText('QR code'), 'LC9-TAG-01');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect
      .poll(() => last().tags)
      .toEqual([{ x: 50, y: 60, name: 'Gate', id: 4, status: 'active', qrCode: 'LC9-TAG-01' }]);
    await userEvent.click(button('Edit Dock'));
    dialog = page.getByRole('dialog', { name: 'Edit Camera' });
    await expect.element(dialog.getByLabelText('Type')).toHaveValue('standard');
    await userEvent.selectOptions(dialog.getByLabelText('Type'), 'thermal');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect
      .poll(() => last().cameras)
      .toEqual([{ x: 70, y: 80, name: 'Dock', type: 'thermal' }]);
  });

  it('gives a new tag a QR code of its line that can be changed; a saved tag without one keeps none', async () => {
    await serveImage();
    const { last } = await showCalibrator({
      initial: {
        displaySize: { width: 800, height: 500 },
        hotZones: [],
        tags: [{ x: 50, y: 60, name: 'Gate' }],
        cameras: [],
        coordinateSystem: {},
      },
    });
    await userEvent.click(button('Add Tag'));
    await clickPlan(300, 200);
    await clickPlan(500, 300);
    await expect.poll(() => last().tags).toHaveLength(3);
    const [gate, second, third] = last().tags;
    expect(gate).toEqual({ x: 50, y: 60, name: 'Gate' });
    expect(second?.qrCode).toMatch(/^BLISTER-LINE-1-T2-[2-9A-HJKMNP-TV-Z]{5}$/);
    expect(third?.qrCode).toMatch(/^BLISTER-LINE-1-T3-[2-9A-HJKMNP-TV-Z]{5}$/);

    await userEvent.click(button('Cancel Tag'));
    await userEvent.click(button('Edit Tag 2'));
    const dialog = page.getByRole('dialog', { name: 'Edit Tag' });
    await expect.element(dialog.getByLabelText('QR code')).toHaveValue(second?.qrCode ?? '');
    await userEvent.fill(dialog.getByLabelText('QR code'), ' PACKING-GATE-2 ');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.poll(() => last().tags[1]?.qrCode).toBe('PACKING-GATE-2');
  });

  it('takes pixels per meter of at least 0.1 and shows the area covered', async () => {
    await serveImage();
    const { last } = await showCalibrator();
    const field = page.getByLabelText('Pixels per meter');
    await userEvent.fill(field, '0.05');
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Pixels per meter must be a number of at least 0.1.');
    expect(last().coordinateSystem.pixelsPerMeter).toBe(50);
    await userEvent.fill(field, '25');
    await expect.poll(() => last().coordinateSystem.pixelsPerMeter).toBe(25);
    await expect.element(page.getByText('48.00 m × 30.00 m')).toBeVisible();
    expect(field.element().getAttribute('min')).toBe('0.1');
    expect(field.element().getAttribute('step')).toBe('0.1');
  });

  it('clears all items, and resets to the saved configuration', async () => {
    await serveImage();
    const saved: FloorplanConfiguration = {
      displaySize: { width: 800, height: 500 },
      hotZones: [],
      tags: [{ x: 5, y: 5, name: 'Saved tag' }],
      cameras: [],
      coordinateSystem: { pixelsPerMeter: 40 },
      slamPoints: [[1, 2]],
    };
    const confirm = vi.spyOn(window, 'confirm');
    const { last } = await showCalibrator({ initial: saved, saved });
    const clearAll = page.getByRole('dialog', { name: 'Clear All' });
    await userEvent.click(button('Clear All'));
    await expect
      .element(clearAll)
      .toHaveAccessibleDescription('Remove every tag, hot zone and camera from this floor plan?');
    // Cancel has the focus: Enter keeps every item, and focus goes back to Clear All.
    await expect.element(clearAll.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect.element(clearAll).not.toBeInTheDocument();
    await expect.element(button('Clear All')).toHaveFocus();
    expect(last().tags).toHaveLength(1);
    await userEvent.click(button('Clear All'));
    await userEvent.click(clearAll.getByRole('button', { name: 'Clear All' }));
    await expect.poll(() => last().tags).toEqual([]);
    expect(last().slamPoints).toEqual([[1, 2]]);

    await userEvent.fill(page.getByLabelText('Pixels per meter'), '60');
    const reset = page.getByRole('dialog', { name: 'Reset Configuration' });
    await userEvent.click(button('Reset Configuration'));
    await expect
      .element(reset)
      .toHaveAccessibleDescription(
        'Reset the configuration? Every change since this floor plan was opened is undone.',
      );
    await userEvent.keyboard('{Escape}');
    await expect.element(reset).not.toBeInTheDocument();
    expect(last().coordinateSystem.pixelsPerMeter).toBe(60);
    await userEvent.click(button('Reset Configuration'));
    await userEvent.click(reset.getByRole('button', { name: 'Reset Configuration' }));
    await expect.poll(() => last().tags).toEqual([{ x: 5, y: 5, name: 'Saved tag' }]);
    expect(last().coordinateSystem.pixelsPerMeter).toBe(40);
    await expect.element(page.getByLabelText('Pixels per meter')).toHaveValue(40);
    // In the page's own dialog, not the browser's.
    expect(confirm).not.toHaveBeenCalled();
  });

  it("shows 'Failed to load floorplan image' and loads again on Retry", async () => {
    const requested = await serveImage(1);
    const emitted: FloorplanConfiguration[] = [];
    await render(
      <Calibrator
        floorplan={floorplan}
        initial={null}
        saved={null}
        readOnly={false}
        lineName="Blister Line 1"
        onChange={(configuration) => emitted.push(configuration)}
      />,
    );
    await expect.element(page.getByText('Failed to load floorplan image')).toBeVisible();
    expect(emitted).toEqual([]);
    expect(requested).toEqual(['/api/floorplans/f00000000000000000000009.png']);
    await userEvent.click(button('Retry'));
    await expect.element(button('Add Tag')).toBeVisible();
    await expect.poll(() => emitted.length).toBe(1);
  });

  it('keeps names whole at 320 px: Edit and Remove go under the name', async () => {
    await page.viewport(320, 640);
    await serveImage();
    await showCalibrator({
      initial: {
        displaySize: { width: 800, height: 500 },
        hotZones: [],
        tags: [{ x: 120, y: 48.5, name: 'Thermoformer' }],
        cameras: [],
        coordinateSystem: {},
      },
    });
    const name = page.getByText('Thermoformer', { exact: true }).element();
    await expect.element(button('Edit Thermoformer')).toBeVisible();
    // One line box: the word is not cut into 'Ther / mofor / mer'.
    expect(name.getClientRects()).toHaveLength(1);
    const edit = button('Edit Thermoformer').element().getBoundingClientRect();
    expect(edit.top).toBeGreaterThanOrEqual(name.getBoundingClientRect().bottom);
    const card = name.closest('.card')?.getBoundingClientRect();
    const remove = button('Remove Thermoformer').element().getBoundingClientRect();
    expect(remove.right).toBeLessThanOrEqual(card?.right ?? 0);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(320);
  });

  it('only shows a read-only configuration, still sending it for review', async () => {
    await serveImage();
    const { last } = await showCalibrator({
      readOnly: true,
      initial: {
        displaySize: { width: 800, height: 500 },
        hotZones: [],
        tags: [{ x: 5, y: 5, name: 'Gate' }],
        cameras: [],
        coordinateSystem: {},
      },
    });
    expect(last().tags).toHaveLength(1);
    await expect.element(page.getByRole('listitem').filter({ hasText: 'Gate' })).toBeVisible();
    expect(document.querySelectorAll('.calibrator button')).toHaveLength(0);
    await expect.element(page.getByLabelText('Pixels per meter')).toHaveAttribute('readonly');
  });
});
