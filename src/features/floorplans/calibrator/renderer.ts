// Draws the calibrator: the floor plan, hot zones, cameras, tags, the selection, the rectangle
// being dragged and the keyboard cross. A plain function of its scene; the component only sizes
// the canvas and schedules a frame.
import { drawLabel } from '../../../lib/canvas-label.ts';
import type { Camera, HotZone, Tag } from '../../../types/api.ts';
import type { Keyed } from './calibration.ts';
import type { DisplayPoint, Rect, Size } from './geometry.ts';

export interface CalibratorScene {
  image: CanvasImageSource | null;
  display: Size;
  tags: readonly Keyed<Tag>[];
  hotZones: readonly Keyed<HotZone>[];
  cameras: readonly Keyed<Camera>[];
  selectedKey: string | null;
  /** The hot zone being dragged; `valid` once it is larger than 20 both ways. */
  draft: { rect: Rect; valid: boolean } | null;
  /** The keyboard placing cross, while a placing mode is on. */
  cursor: DisplayPoint | null;
  /** The first corner of a hot zone placed by keyboard. */
  corner: DisplayPoint | null;
}

const fallbackColor = '#4363d8';
const tagRadius = 8;
const cameraHalf = 7;
const ink = '#111827';
const halo = '#ffffff';
const validDraft = '#15803d';
const invalidDraft = '#b91c1c';

const labelStyle = { font: '600 12px system-ui, sans-serif', ink, halo };

function label(
  ctx: CanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  display: Size,
  leftEdge: number,
): void {
  drawLabel(ctx, labelStyle, text, { x, y, leftEdge, planWidth: display.width });
}

/** A dark line inside a light one, visible on light and dark parts of a plan. */
function doubleStroke(ctx: CanvasRenderingContext2D, path: () => void, dashed = false): void {
  ctx.setLineDash(dashed ? [5, 4] : []);
  for (const [style, width] of [
    [halo, 4],
    [ink, 2],
  ] as const) {
    ctx.beginPath();
    path();
    ctx.strokeStyle = style;
    ctx.lineWidth = width;
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

function drawHotZone(
  ctx: CanvasRenderingContext2D,
  zone: HotZone,
  selected: boolean,
  display: Size,
): void {
  ctx.fillStyle = zone.color ?? fallbackColor;
  ctx.globalAlpha = 0.25;
  ctx.fillRect(zone.x, zone.y, zone.width, zone.height);
  ctx.globalAlpha = 1;
  ctx.lineWidth = 2;
  ctx.strokeStyle = zone.color ?? fallbackColor;
  ctx.strokeRect(zone.x, zone.y, zone.width, zone.height);
  if (selected) {
    doubleStroke(
      ctx,
      () => ctx.rect(zone.x - 3, zone.y - 3, zone.width + 6, zone.height + 6),
      true,
    );
  }
  label(ctx, zone.name, zone.x + 4, zone.y + 10, display, zone.x + zone.width);
}

function drawTag(ctx: CanvasRenderingContext2D, tag: Tag, selected: boolean, display: Size): void {
  ctx.beginPath();
  ctx.arc(tag.x, tag.y, tagRadius, 0, Math.PI * 2);
  ctx.fillStyle = tag.color ?? fallbackColor;
  ctx.fill();
  doubleStroke(ctx, () => ctx.arc(tag.x, tag.y, tagRadius, 0, Math.PI * 2));
  if (selected) doubleStroke(ctx, () => ctx.arc(tag.x, tag.y, tagRadius + 6, 0, Math.PI * 2), true);
  label(ctx, tag.name, tag.x + tagRadius + 4, tag.y, display, tag.x - tagRadius);
}

function drawCamera(
  ctx: CanvasRenderingContext2D,
  camera: Camera,
  selected: boolean,
  display: Size,
): void {
  const side = cameraHalf * 2;
  const left = camera.x - cameraHalf;
  const top = camera.y - cameraHalf;
  ctx.fillStyle = camera.color ?? fallbackColor;
  ctx.fillRect(left, top, side, side);
  doubleStroke(ctx, () => ctx.rect(left, top, side, side));
  // The lens, so a camera reads differently from a tag without colour.
  ctx.beginPath();
  ctx.arc(camera.x, camera.y, 3, 0, Math.PI * 2);
  ctx.fillStyle = halo;
  ctx.fill();
  if (selected) doubleStroke(ctx, () => ctx.rect(left - 5, top - 5, side + 10, side + 10), true);
  label(ctx, camera.name, camera.x + cameraHalf + 4, camera.y, display, camera.x - cameraHalf);
}

function drawCross(ctx: CanvasRenderingContext2D, point: DisplayPoint): void {
  doubleStroke(ctx, () => {
    ctx.moveTo(point.x - 12, point.y);
    ctx.lineTo(point.x + 12, point.y);
    ctx.moveTo(point.x, point.y - 12);
    ctx.lineTo(point.x, point.y + 12);
  });
}

/** Draws the whole scene; `pixelRatio` maps display pixels to canvas pixels (sharp on HiDPI). */
export function drawCalibrator(
  ctx: CanvasRenderingContext2D,
  scene: CalibratorScene,
  pixelRatio: number,
): void {
  const { display } = scene;
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  ctx.clearRect(0, 0, display.width, display.height);
  if (scene.image) ctx.drawImage(scene.image, 0, 0, display.width, display.height);
  for (const { key, value } of scene.hotZones) {
    drawHotZone(ctx, value, key === scene.selectedKey, display);
  }
  for (const { key, value } of scene.cameras) {
    drawCamera(ctx, value, key === scene.selectedKey, display);
  }
  for (const { key, value } of scene.tags) drawTag(ctx, value, key === scene.selectedKey, display);
  if (scene.draft) {
    const { rect, valid } = scene.draft;
    const color = valid ? validDraft : invalidDraft;
    ctx.fillStyle = color;
    ctx.globalAlpha = 0.15;
    ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
    ctx.globalAlpha = 1;
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.strokeRect(rect.x, rect.y, rect.width, rect.height);
    ctx.setLineDash([]);
  }
  if (scene.corner) {
    const corner = scene.corner;
    doubleStroke(ctx, () => ctx.rect(corner.x - 4, corner.y - 4, 8, 8));
  }
  if (scene.cursor) drawCross(ctx, scene.cursor);
}
