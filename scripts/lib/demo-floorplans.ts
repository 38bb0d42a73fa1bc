// The two demo packaging lines as data: what the floor-plan image shows, where the operator's
// route runs, where tags, hot zones and cameras sit (image pixels), and the ground-truth
// calibration that ties the SLAM map (metres) to the image.
import type { DemoCamera, DemoHotZone, DemoTag } from '../../server/demo/dataset-types.ts';
import { hexColor, Raster } from './raster.ts';
import type { Point } from './transform.ts';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Machine extends Rect {
  name: string;
  color: string;
  /** Drawn as a carousel (filler, capper) instead of a plain block. */
  round?: boolean;
}

export interface LineLayout {
  lineKey: string;
  /** File name under floorplans/. */
  imageName: string;
  width: number;
  height: number;
  /** Outer walls as a rectangle, with door gaps along the wall lines. */
  room: Rect;
  doors: Rect[];
  conveyors: Rect[];
  machines: Machine[];
  /** Floor markings: tinted areas outlined in their colour. */
  floorZones: (Rect & { color: string })[];
  pillars: Point[];
  /** The full inspection walk, image pixels. */
  route: Point[];
  tags: (Omit<DemoTag, 'x' | 'y'> & { at: Point })[];
  /** The areas to inspect: a machine and the aisle it is checked from (a walk "visits" it inside). */
  hotZones: (Omit<DemoHotZone, 'x' | 'y' | 'width' | 'height'> & { rect: Rect })[];
  cameras: (Omit<DemoCamera, 'x' | 'y'> & { at: Point })[];
  /** Map units (after yAxisFlip) and image pixels, paired by index: the ground truth. */
  slamPoints: Point[];
  floorplanPoints: Point[];
  forceAffine: boolean;
  yAxisFlip: boolean;
}

const WALL = hexColor('#2b2f36');
const FLOOR = hexColor('#f4f1ea');
const GRID = hexColor('#e6e2d8');
const CONVEYOR = hexColor('#8c939c');
const ROLLER = hexColor('#6b727b');

/** The shade used for machine outlines and panels, on the plan and in the camera view. */
export function darker(hex: string): string {
  const [r, g, b] = hexColor(hex);
  const d = (v: number) =>
    Math.round(v * 0.6)
      .toString(16)
      .padStart(2, '0');
  return `#${d(r)}${d(g)}${d(b)}`;
}

function lighter(hex: string): string {
  const [r, g, b] = hexColor(hex);
  const l = (v: number) =>
    Math.round(v + (255 - v) * 0.75)
      .toString(16)
      .padStart(2, '0');
  return `#${l(r)}${l(g)}${l(b)}`;
}

/** Draws the plan: floor grid (2 m), zones, conveyors with rollers, machines, pillars, walls, doors. */
export function drawFloorplan(layout: LineLayout): Raster {
  const r = new Raster(layout.width, layout.height, FLOOR);
  for (let x = 0; x < layout.width; x += 100) r.fillRect(x, 0, 1, layout.height, GRID);
  for (let y = 0; y < layout.height; y += 100) r.fillRect(0, y, layout.width, 1, GRID);
  for (const z of layout.floorZones) {
    r.fillRect(z.x, z.y, z.w, z.h, hexColor(lighter(z.color)));
    r.strokeRect(z.x, z.y, z.w, z.h, 3, hexColor(z.color));
  }
  for (const c of layout.conveyors) {
    r.fillRect(c.x, c.y, c.w, c.h, CONVEYOR);
    const horizontal = c.w >= c.h;
    const length = horizontal ? c.w : c.h;
    for (let d = 6; d < length; d += 12) {
      if (horizontal) r.fillRect(c.x + d, c.y + 2, 2, c.h - 4, ROLLER);
      else r.fillRect(c.x + 2, c.y + d, c.w - 4, 2, ROLLER);
    }
  }
  for (const m of layout.machines) {
    const body = hexColor(m.color);
    const edge = hexColor(darker(m.color));
    r.fillRect(m.x, m.y, m.w, m.h, body);
    r.strokeRect(m.x, m.y, m.w, m.h, 4, edge);
    if (m.round) {
      const radius = Math.min(m.w, m.h) / 2 - 10;
      r.fillCircle(m.x + m.w / 2, m.y + m.h / 2, radius, edge);
      r.fillCircle(m.x + m.w / 2, m.y + m.h / 2, radius - 8, hexColor(lighter(m.color)));
    } else {
      // A control panel on the operator side makes the blocks read as machines.
      r.fillRect(m.x + m.w / 2 - 10, m.y + m.h - 16, 20, 8, edge);
    }
  }
  for (const [x, y] of layout.pillars) r.fillRect(x - 12, y - 12, 24, 24, WALL);
  const { x, y, w, h } = layout.room;
  r.strokeRect(x, y, w, h, 10, WALL);
  for (const d of layout.doors) {
    r.fillRect(d.x, d.y, d.w, d.h, FLOOR);
    // Door leaf swinging inwards.
    const vertical = d.h > d.w;
    if (vertical) r.line(d.x + d.w, d.y, d.x + d.w + d.h * 0.7, d.y + d.h * 0.7, 3, WALL);
    else r.line(d.x, d.y, d.x + d.w * 0.7, d.y - d.w * 0.7, 3, WALL);
  }
  return r;
}

export const blisterLine: LineLayout = {
  lineKey: 'blister-line-1',
  imageName: 'blister-line-1.png',
  width: 1200,
  height: 750,
  room: { x: 40, y: 40, w: 1120, h: 670 },
  doors: [{ x: 38, y: 330, w: 14, h: 80 }],
  conveyors: [{ x: 210, y: 305, w: 790, h: 30 }],
  machines: [
    { name: 'Film unwind', x: 150, y: 285, w: 60, h: 70, color: '#9b8fb0' },
    { name: 'Thermoformer', x: 230, y: 270, w: 170, h: 100, color: '#4a7fc1' },
    { name: 'Product feeder', x: 420, y: 240, w: 80, h: 60, color: '#6aa6a0' },
    { name: 'Sealing station', x: 520, y: 275, w: 120, h: 90, color: '#e08a3c' },
    { name: 'Perforation and cutting', x: 660, y: 280, w: 80, h: 80, color: '#8e6cc0' },
    { name: 'Cartoner', x: 800, y: 260, w: 160, h: 120, color: '#4f9d5b' },
    { name: 'Case packer', x: 990, y: 270, w: 100, h: 100, color: '#3f8f9f' },
  ],
  floorZones: [
    { x: 60, y: 480, w: 150, h: 210, color: '#d8b531' },
    { x: 700, y: 460, w: 90, h: 60, color: '#d04a4a' },
    { x: 880, y: 520, w: 220, h: 160, color: '#4a90d0' },
    { x: 1020, y: 60, w: 120, h: 100, color: '#7a7a7a' },
  ],
  pillars: [
    [400, 580],
    [800, 600],
  ],
  route: [
    [60, 370],
    [130, 430],
    [1110, 430],
    [1120, 200],
    [130, 200],
    [100, 300],
    [60, 370],
  ],
  tags: [
    {
      at: [315, 424],
      name: 'Thermoformer front',
      qrCode: 'LC1-TAG-01',
      color: '#e6194b',
      description: 'Forming station guard, aisle side',
    },
    {
      at: [580, 425],
      name: 'Sealing station front',
      qrCode: 'LC1-TAG-02',
      color: '#3cb44b',
      description: 'Sealing roller access door',
    },
    {
      at: [880, 423],
      name: 'Cartoner front',
      qrCode: 'LC1-TAG-03',
      color: '#4363d8',
      description: 'Leaflet and carton magazine',
    },
    {
      at: [1121, 300],
      name: 'Case packer end',
      qrCode: 'LC1-TAG-04',
      color: '#f58231',
      description: 'Case erector and outfeed',
    },
    {
      at: [880, 206],
      name: 'Cartoner rear',
      qrCode: 'LC1-TAG-05',
      color: '#911eb4',
      description: 'Reject chute behind the cartoner',
    },
    {
      at: [580, 207],
      name: 'Sealing station rear',
      qrCode: 'LC1-TAG-06',
      color: '#42d4f4',
      description: 'Foil reel holder',
    },
    {
      at: [315, 194],
      name: 'Thermoformer rear',
      qrCode: 'LC1-TAG-07',
      color: '#f032e6',
      description: 'PVC film path and forming tool',
    },
    {
      at: [990, 525],
      name: 'QC bench',
      qrCode: 'LC1-TAG-08',
      color: '#469990',
      description: 'In-process control bench, checked separately',
    },
  ],
  hotZones: [
    {
      rect: { x: 225, y: 190, w: 180, h: 250 },
      name: 'Forming station',
      description: 'Heated forming tool; loose blisters collect under the guard',
      color: '#e6194b',
      importance: 'critical',
    },
    {
      rect: { x: 515, y: 190, w: 130, h: 182 },
      name: 'Sealing station',
      description: 'Lidding foil offcuts and rejected cards',
      color: '#f58231',
      importance: 'high',
    },
    {
      rect: { x: 795, y: 252, w: 170, h: 190 },
      name: 'Cartoner infeed',
      description: 'Leaflets and printed cartons of the previous batch',
      color: '#ffe119',
      importance: 'high',
    },
    {
      rect: { x: 700, y: 460, w: 90, h: 60 },
      name: 'Reject bin',
      description: 'Must be emptied and signed off',
      color: '#911eb4',
      importance: 'medium',
    },
    {
      rect: { x: 60, y: 480, w: 150, h: 210 },
      name: 'Material staging',
      description: 'Only materials of the next batch may be staged',
      color: '#bfef45',
      importance: 'low',
    },
  ],
  cameras: [
    {
      at: [315, 120],
      name: 'Forming dome',
      type: 'dome',
      color: '#000075',
      description: 'Ceiling dome over the thermoformer',
    },
    {
      at: [880, 620],
      name: 'Cartoner PTZ',
      type: 'ptz',
      color: '#808000',
      description: 'Pan-tilt-zoom covering cartoner and QC bench',
    },
    {
      at: [90, 100],
      name: 'Entrance bullet',
      type: 'bullet',
      color: '#9a6324',
      description: 'Covers the airlock door',
    },
  ],
  // Ground truth: an affine map (about 48 px/m, rotated 4.8°) from the y-flipped SLAM frame.
  slamPoints: [
    [1, 1],
    [21, 1],
    [21, 11],
    [1, 11],
  ],
  floorplanPoints: [
    [104, 92],
    [1064, 172],
    [1024, 652],
    [64, 572],
  ],
  forceAffine: true,
  yAxisFlip: true,
};

export const bottlingLine: LineLayout = {
  lineKey: 'bottling-line-2',
  imageName: 'bottling-line-2.png',
  width: 1000,
  height: 800,
  room: { x: 30, y: 30, w: 940, h: 740 },
  doors: [{ x: 80, y: 758, w: 80, h: 14 }],
  conveyors: [
    { x: 150, y: 185, w: 715, h: 30 },
    { x: 835, y: 185, w: 30, h: 430 },
    { x: 340, y: 585, w: 525, h: 30 },
  ],
  machines: [
    { name: 'Bottle unscrambler', x: 110, y: 150, w: 110, h: 100, color: '#7d8fb3' },
    { name: 'Rinser', x: 300, y: 160, w: 80, h: 80, color: '#5aa0c8' },
    { name: 'Filler', x: 440, y: 140, w: 140, h: 120, color: '#3f6fb5', round: true },
    { name: 'Capper', x: 640, y: 160, w: 80, h: 80, color: '#c8743a', round: true },
    { name: 'Labeller', x: 800, y: 300, w: 100, h: 100, color: '#5c9e57' },
    { name: 'Checkweigher', x: 810, y: 440, w: 80, h: 60, color: '#a05c9e' },
    { name: 'Case packer', x: 380, y: 560, w: 140, h: 100, color: '#3f8f9f' },
    { name: 'Palletizer', x: 140, y: 540, w: 140, h: 140, color: '#8a7b5c' },
  ],
  floorZones: [
    { x: 60, y: 60, w: 140, h: 70, color: '#d8b531' },
    { x: 600, y: 660, w: 150, h: 90, color: '#d04a4a' },
  ],
  pillars: [
    [500, 420],
    [200, 420],
  ],
  route: [
    [120, 740],
    [80, 500],
    [80, 300],
    [760, 300],
    [760, 500],
    [300, 500],
    [300, 720],
    [120, 740],
  ],
  tags: [
    {
      at: [165, 294],
      name: 'Unscrambler',
      qrCode: 'LC2-TAG-01',
      color: '#e6194b',
      description: 'Bottle hopper and orientation drum',
    },
    {
      at: [510, 306],
      name: 'Filler',
      qrCode: 'LC2-TAG-02',
      color: '#3cb44b',
      description: 'Filling carousel guard door',
    },
    {
      at: [680, 295],
      name: 'Capper',
      qrCode: 'LC2-TAG-03',
      color: '#4363d8',
      description: 'Cap chute and torque heads',
    },
    {
      at: [766, 350],
      name: 'Labeller',
      qrCode: 'LC2-TAG-04',
      color: '#f58231',
      description: 'Label reel and printer',
    },
    {
      at: [766, 492],
      name: 'Checkweigher',
      qrCode: 'LC2-TAG-05',
      color: '#911eb4',
      description: 'Reject bin under the checkweigher',
    },
    {
      at: [450, 507],
      name: 'Case packer',
      qrCode: 'LC2-TAG-06',
      color: '#42d4f4',
      description: 'Case magazine and glue unit',
    },
    {
      at: [210, 610],
      name: 'Palletizer',
      qrCode: 'LC2-TAG-07',
      color: '#f032e6',
      description: 'Pallet station, checked from the forklift aisle',
    },
  ],
  hotZones: [
    {
      rect: { x: 430, y: 130, w: 160, h: 185 },
      name: 'Filler carousel',
      description: 'Open product path; any foreign object is critical',
      color: '#e6194b',
      importance: 'critical',
    },
    {
      rect: { x: 630, y: 150, w: 100, h: 165 },
      name: 'Capper',
      description: 'Caps of the previous batch collect in the chute',
      color: '#f58231',
      importance: 'high',
    },
    {
      rect: { x: 745, y: 290, w: 165, h: 120 },
      name: 'Labeller',
      description: 'Printed labels of the previous batch',
      color: '#ffe119',
      importance: 'high',
    },
    {
      rect: { x: 130, y: 530, w: 160, h: 160 },
      name: 'Palletizer',
      description: 'Forklift traffic; leftover cases',
      color: '#911eb4',
      importance: 'medium',
    },
    {
      rect: { x: 600, y: 660, w: 150, h: 90 },
      name: 'Glass breakage kit',
      description: 'Check the kit is complete',
      color: '#bfef45',
      importance: 'low',
    },
  ],
  cameras: [
    {
      at: [510, 80],
      name: 'Filler thermal',
      type: 'thermal',
      color: '#000075',
      description: 'Thermal camera over the filler bowl',
    },
    {
      at: [930, 740],
      name: 'Hall panoramic',
      type: 'panoramic',
      color: '#808000',
      description: 'Panoramic view of the whole hall',
    },
    {
      at: [450, 720],
      name: 'Case packer wireless',
      type: 'wireless',
      color: '#9a6324',
      description: 'Battery camera at the case packer',
    },
  ],
  // Ground truth: a true perspective map (the SLAM rectangle lands on a non-parallelogram).
  slamPoints: [
    [0, 0],
    [18, 0],
    [18, 14],
    [0, 14],
  ],
  floorplanPoints: [
    [90, 80],
    [930, 110],
    [900, 740],
    [110, 700],
  ],
  forceAffine: false,
  yAxisFlip: false,
};
