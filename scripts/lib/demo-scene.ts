// The operator's walk and what the helmet camera sees. One renderer draws both the video frames
// and the keyframe images, so detections drawn in a keyframe are also in the video at that time,
// and every prediction box is computed from the same geometry the pixels come from.
import { darker, type LineLayout, type Rect } from './demo-floorplans.ts';
import { Prng } from './prng.ts';
import { hexColor, Raster, type Rgb } from './raster.ts';
import type { Point } from './transform.ts';

export const DETECTION_CLASSES = [
  'leftover label',
  'carton',
  'tool',
  'debris',
  'product unit',
] as const;
export type DetectionClass = (typeof DETECTION_CLASSES)[number];

/** The colour at the centre of each object's box: tests check that boxes land on it. */
export const CLASS_BODY_COLOR: Record<DetectionClass, Rgb> = {
  'leftover label': hexColor('#f7f7f2'),
  carton: hexColor('#a8743a'),
  tool: hexColor('#c0392b'),
  debris: hexColor('#4a3b32'),
  'product unit': hexColor('#2f7de1'),
};

/** A polyline with arc-length lookup, image pixels. */
export class RoutePath {
  readonly length: number;
  private readonly cumulative: number[];

  constructor(readonly points: readonly Point[]) {
    if (points.length < 2) throw new Error(`A route needs 2 or more points, got ${points.length}`);
    this.cumulative = [0];
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1]!;
      const [bx, by] = points[i]!;
      this.cumulative.push(this.cumulative[i - 1]! + Math.hypot(bx - ax, by - ay));
    }
    this.length = this.cumulative[this.cumulative.length - 1]!;
  }

  /** Position and unit direction at arc length s (clamped to the route). */
  at(s: number): { point: Point; direction: Point } {
    const d = Math.max(0, Math.min(this.length, s));
    let i = 1;
    while (i < this.points.length - 1 && this.cumulative[i]! < d) i++;
    const [ax, ay] = this.points[i - 1]!;
    const [bx, by] = this.points[i]!;
    const segment = this.cumulative[i]! - this.cumulative[i - 1]!;
    const f = segment === 0 ? 0 : (d - this.cumulative[i - 1]!) / segment;
    const dir: Point = segment === 0 ? [1, 0] : [(bx - ax) / segment, (by - ay) / segment];
    return { point: [ax + f * (bx - ax), ay + f * (by - ay)], direction: dir };
  }

  /** Arc length of the route point nearest to p, and its distance (sampled every pixel). */
  nearest(p: Point): { s: number; distance: number } {
    let best = { s: 0, distance: Number.POSITIVE_INFINITY };
    for (let s = 0; s <= this.length; s += 1) {
      const [x, y] = this.at(s).point;
      const distance = Math.hypot(x - p[0], y - p[1]);
      if (distance < best.distance) best = { s, distance };
    }
    return best;
  }
}

export interface SceneObject {
  /** Arc length along the route, image pixels. */
  s: number;
  label: DetectionClass;
  lane: 'belt' | 'floor';
}

export interface WalkPlan {
  route: RoutePath;
  /** Seconds. */
  duration: number;
  /** The operator stops at these arc lengths (e.g. to scan a tag). */
  pauses: { s: number; seconds: number }[];
  seed: number;
}

/** Where the operator is at time t: smooth speed changes, pauses, a little sway. */
export class Walk {
  private readonly walkTime: number;
  private readonly pauseStarts: { t: number; s: number; seconds: number }[] = [];
  private readonly phase: number;

  constructor(private readonly plan: WalkPlan) {
    const paused = plan.pauses.reduce((n, p) => n + p.seconds, 0);
    this.walkTime = plan.duration - paused;
    if (this.walkTime <= 0) throw new Error('Walk: the pauses take longer than the video');
    this.phase = new Prng(plan.seed).range(0, Math.PI * 2);
    let offset = 0;
    for (const pause of [...plan.pauses].sort((a, b) => a.s - b.s)) {
      this.pauseStarts.push({ t: this.progressAt(pause.s) + offset, ...pause });
      offset += pause.seconds;
    }
  }

  /** Arc length after tau seconds of walking: speed varies ±25% but never reverses. */
  private arcAt(tau: number): number {
    const f = tau / this.walkTime;
    return (
      this.plan.route.length * (f + (0.25 * Math.sin(2 * Math.PI * 3 * f)) / (2 * Math.PI * 3))
    );
  }

  /** Inverse of arcAt by bisection (arcAt is increasing). */
  private progressAt(s: number): number {
    let lo = 0;
    let hi = this.walkTime;
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (this.arcAt(mid) < s) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  arcLength(t: number): number {
    let tau = t;
    for (const pause of this.pauseStarts) {
      if (t < pause.t) break;
      if (t < pause.t + pause.seconds) return pause.s;
      tau -= pause.seconds;
    }
    return this.arcAt(Math.max(0, Math.min(this.walkTime, tau)));
  }

  /** Image-pixel position at time t, swaying up to 1.8 px across the walking direction. */
  position(t: number): Point {
    const { point, direction } = this.plan.route.at(this.arcLength(t));
    const sway =
      1.2 * Math.sin((2 * Math.PI * t) / 3.1) +
      0.6 * Math.sin((2 * Math.PI * t) / 1.3 + this.phase);
    return [point[0] - direction[1] * sway, point[1] + direction[0] * sway];
  }
}

/** Machines and tags along the route, as arc-length intervals the camera walks past. */
export interface SceneSet {
  machines: { s0: number; s1: number; color: Rgb; edge: Rgb }[];
  tags: number[];
  objects: SceneObject[];
}

const NEAR_MACHINE_PX = 70;
const NEAR_TAG_PX = 40;

function distanceToRect([x, y]: Point, r: Rect): number {
  const dx = Math.max(r.x - x, 0, x - (r.x + r.w));
  const dy = Math.max(r.y - y, 0, y - (r.y + r.h));
  return Math.hypot(dx, dy);
}

export function sceneSet(layout: LineLayout, route: RoutePath, objects: SceneObject[]): SceneSet {
  const machines: SceneSet['machines'] = [];
  for (const m of layout.machines) {
    let start = -1;
    for (let s = 0; s <= route.length + 2; s += 2) {
      const near = s <= route.length && distanceToRect(route.at(s).point, m) < NEAR_MACHINE_PX;
      if (near && start < 0) start = s;
      // Ignore brushes shorter than 20 px: they would flash past as a thin pole.
      if (!near && start >= 0 && s - start >= 20) {
        machines.push({
          s0: start,
          s1: s,
          color: hexColor(m.color),
          edge: hexColor(darker(m.color)),
        });
      }
      if (!near) start = -1;
    }
  }
  const tags = layout.tags
    .map((t) => route.nearest(t.at))
    .filter((n) => n.distance < NEAR_TAG_PX)
    .map((n) => n.s);
  return { machines, tags, objects };
}

const WALL_COLOR = hexColor('#d9dee4');
const SEAM_COLOR = hexColor('#c3c9d1');
const FLOOR_COLOR = hexColor('#9aa3ad');
const BELT_COLOR = hexColor('#5b6470');
const ROLLER_COLOR = hexColor('#454c55');
const SAFETY_COLOR = hexColor('#e8c12c');
const WHITE = hexColor('#ffffff');
const BLACK = hexColor('#111111');

/** Route pixels visible across the frame (4 m at 50 px/m). */
const VIEW_SPAN = 200;

/** Object sizes in route pixels (50 per metre). */
const SIZES: Record<DetectionClass, { w: number; h: number }> = {
  'leftover label': { w: 16, h: 10 },
  carton: { w: 30, h: 24 },
  tool: { w: 32, h: 9 },
  debris: { w: 20, h: 8 },
  'product unit': { w: 18, h: 12 },
};

export interface VisibleObject {
  label: DetectionClass;
  /** [x1, y1, x2, y2] as fractions of the frame, clipped to it. */
  box: [number, number, number, number];
}

function drawObject(
  r: Raster,
  label: DetectionClass,
  x: number,
  y: number,
  w: number,
  h: number,
): void {
  const body = CLASS_BODY_COLOR[label];
  switch (label) {
    case 'leftover label':
      r.fillRect(x, y, w, h, body);
      r.fillRect(x, y, w, h * 0.25, hexColor('#d2342a'));
      break;
    case 'carton':
      r.fillRect(x, y, w, h, body);
      r.fillRect(x, y, w, h * 0.2, hexColor('#e0c08a'));
      break;
    case 'tool': {
      // Wrench: a steel head at the right end, the red handle drawn over its left half so the
      // box's centre stays on the handle even when the frame cuts the tool.
      const head = h / 2;
      r.fillCircle(x + w - head, y + h / 2, head, hexColor('#c9ced4'));
      r.fillRect(x, y + h * 0.25, w - head, h * 0.5, body);
      break;
    }
    case 'debris':
      r.fillPolygon(
        [
          [x, y + 0.4 * h],
          [x + 0.2 * w, y],
          [x + 0.7 * w, y + 0.1 * h],
          [x + w, y + 0.5 * h],
          [x + 0.8 * w, y + h],
          [x + 0.25 * w, y + 0.9 * h],
        ],
        body,
      );
      break;
    case 'product unit':
      r.fillRect(x, y, w, h, body);
      // Blister pockets in the upper half, clear of the box centre.
      r.fillCircle(x + w * 0.25, y + h * 0.28, h * 0.15, WHITE);
      r.fillCircle(x + w * 0.75, y + h * 0.28, h * 0.15, WHITE);
      break;
  }
}

/** Draws the view at arc length s into a w×h frame; returns the objects at least 60% in view. */
export function renderScene(
  set: SceneSet,
  s: number,
  width: number,
  height: number,
): { frame: Raster; visible: VisibleObject[] } {
  const r = new Raster(width, height, WALL_COLOR);
  const scale = width / VIEW_SPAN;
  const screenX = (at: number) => (at - s) * scale + width / 2;
  const first = Math.floor((s - VIEW_SPAN) / 50) * 50;
  for (let at = first; at < s + VIEW_SPAN; at += 100)
    r.fillRect(screenX(at), 0, 2, height * 0.58, SEAM_COLOR);
  r.fillRect(0, height * 0.58, width, height * 0.42, FLOOR_COLOR);
  for (let at = first; at < s + VIEW_SPAN; at += 50) {
    r.fillRect(screenX(at), height * 0.84, 30 * scale, height * 0.02, SAFETY_COLOR);
  }
  for (const tagS of set.tags) {
    // A QR label: white square, black border, three finder squares.
    const size = height * 0.12;
    const x = screenX(tagS) - size / 2;
    const y = height * 0.18;
    r.fillRect(x, y, size, size, WHITE);
    r.strokeRect(x, y, size, size, Math.max(1, size * 0.08), BLACK);
    const f = size * 0.3;
    r.fillRect(x + size * 0.12, y + size * 0.12, f, f, BLACK);
    r.fillRect(x + size * 0.58, y + size * 0.12, f, f, BLACK);
    r.fillRect(x + size * 0.12, y + size * 0.58, f, f, BLACK);
  }
  r.fillRect(0, height * 0.52, width, height * 0.08, BELT_COLOR);
  for (let at = Math.floor((s - VIEW_SPAN) / 20) * 20; at < s + VIEW_SPAN; at += 20) {
    r.fillRect(screenX(at), height * 0.52, Math.max(1, 2 * scale), height * 0.08, ROLLER_COLOR);
  }
  for (let at = first; at < s + VIEW_SPAN; at += 80) {
    r.fillRect(screenX(at), height * 0.6, 3 * scale, height * 0.1, ROLLER_COLOR);
  }
  for (const m of set.machines) {
    const x0 = screenX(m.s0);
    const x1 = screenX(m.s1);
    if (x1 < 0 || x0 > width) continue;
    r.fillRect(x0, height * 0.12, x1 - x0, height * 0.54, m.color);
    r.strokeRect(x0, height * 0.12, x1 - x0, height * 0.54, Math.max(2, 3 * scale), m.edge);
    r.fillRect(
      x0 + 8 * scale,
      height * 0.2,
      Math.max(0, x1 - x0 - 16 * scale),
      height * 0.12,
      m.edge,
    );
  }
  const visible: VisibleObject[] = [];
  for (const o of set.objects) {
    const size = SIZES[o.label];
    const w = size.w * scale;
    const h = size.h * scale;
    const x = screenX(o.s) - w / 2;
    const y = o.lane === 'belt' ? height * 0.52 - h : height * 0.95 - h;
    if (x + w < 0 || x > width) continue;
    drawObject(r, o.label, x, y, w, h);
    const x1 = Math.max(0, x);
    const x2 = Math.min(width, x + w);
    if (x2 - x1 >= 0.6 * w) {
      const round = (v: number) => Math.round(v * 10000) / 10000;
      visible.push({
        label: o.label,
        box: [round(x1 / width), round(y / height), round(x2 / width), round((y + h) / height)],
      });
    }
  }
  return { frame: r, visible };
}
