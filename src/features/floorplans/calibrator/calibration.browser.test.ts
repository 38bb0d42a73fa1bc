import { describe, expect, it } from 'vitest';
import { palette } from '../../../lib/palette.ts';
import type { FloorplanConfiguration, Tag } from '../../../types/api.ts';
import {
  addHotZone,
  calibrationFrom,
  defaultName,
  emptyCalibration,
  itemProblem,
  moveItem,
  parsePixelsPerMeter,
  placePoint,
  removeItem,
  toConfiguration,
} from './calibration.ts';
import {
  coverageMeters,
  displayPoint,
  fitDisplaySize,
  isHotZoneLargeEnough,
  nearestWithin,
  rectFromCorners,
} from './geometry.ts';

const display = { width: 800, height: 500 };
const line = 'Blister Line 1';

function configuration(overrides: Partial<FloorplanConfiguration> = {}): FloorplanConfiguration {
  return {
    floorplanImage: '/api/floorplans/old.png',
    displaySize: display,
    hotZones: [],
    tags: [],
    cameras: [],
    coordinateSystem: { pixelsPerMeter: 50 },
    ...overrides,
  };
}

describe('display frame (spec §9)', () => {
  it('scales the longer side to 800, up or down, keeping the proportion', () => {
    expect(fitDisplaySize({ width: 1200, height: 750 })).toEqual({ width: 800, height: 500 });
    expect(fitDisplaySize({ width: 1000, height: 800 })).toEqual({ width: 800, height: 640 });
    expect(fitDisplaySize({ width: 300, height: 600 })).toEqual({ width: 400, height: 800 });
    expect(fitDisplaySize({ width: 1000, height: 333 })).toEqual({ width: 800, height: 266.4 });
    expect(() => fitDisplaySize({ width: 0, height: 10 })).toThrow(RangeError);
  });

  it('covers the source image at pixels per meter', () => {
    expect(coverageMeters({ width: 1200, height: 750 }, 50)).toEqual({ width: 24, height: 15 });
    expect(() => coverageMeters({ width: 1, height: 1 }, 0)).toThrow(RangeError);
  });
});

describe('hot zones (spec §4: larger than 20 both ways)', () => {
  it('normalises a drag in any direction and cuts it to the plan', () => {
    expect(rectFromCorners(displayPoint(130, 90), displayPoint(100, 140), display)).toEqual({
      x: 100,
      y: 90,
      width: 30,
      height: 50,
    });
    expect(rectFromCorners(displayPoint(790, 480), displayPoint(900, 600), display)).toEqual({
      x: 790,
      y: 480,
      width: 10,
      height: 20,
    });
  });

  it('creates a zone only above 20 × 20', () => {
    expect(isHotZoneLargeEnough({ width: 20, height: 50 })).toBe(false);
    expect(isHotZoneLargeEnough({ width: 50, height: 20 })).toBe(false);
    expect(isHotZoneLargeEnough({ width: 20.01, height: 20.01 })).toBe(true);
    expect(addHotZone(emptyCalibration(), { x: 0, y: 0, width: 20, height: 21 })).toBeNull();
    const added = addHotZone(emptyCalibration(), { x: 5, y: 6, width: 21, height: 21 });
    expect(added?.calibration.hotZones[0]?.value).toEqual({
      x: 5,
      y: 6,
      width: 21,
      height: 21,
      name: 'Hot Zone 1',
      color: palette[0],
      importance: 'medium',
    });
  });
});

describe('tags and cameras', () => {
  it("names them 'Tag N' / 'Camera N', never repeating a name in use", () => {
    expect(defaultName('tag', [])).toBe('Tag 1');
    expect(defaultName('tag', ['Tag 1'])).toBe('Tag 2');
    expect(defaultName('tag', ['Tag 2'])).toBe('Tag 3');
    expect(defaultName('camera', ['Dock camera', 'Camera 3'])).toBe('Camera 4');
  });

  it('gives each kind the first unused palette colour, cycling when all 48 are used', () => {
    let calibration = emptyCalibration();
    for (let index = 0; index < 3; index += 1) {
      calibration = placePoint(calibration, 'tag', displayPoint(index * 100, 10), line).calibration;
    }
    expect(calibration.tags.map((tag) => tag.value.color)).toEqual(palette.slice(0, 3));
    // Cameras have their own sequence; a removed tag frees its colour.
    calibration = placePoint(calibration, 'camera', displayPoint(500, 400), line).calibration;
    expect(calibration.cameras[0]?.value).toMatchObject({ color: palette[0], type: 'standard' });
    calibration = removeItem(calibration, 'tag', calibration.tags[1]?.key ?? '');
    calibration = placePoint(calibration, 'tag', displayPoint(700, 10), line).calibration;
    expect(calibration.tags.at(-1)?.value).toMatchObject({ name: 'Tag 4', color: palette[1] });

    const full = calibrationFrom(
      configuration({
        tags: palette.map((color, index): Tag => ({ x: index, y: 0, name: `T${index}`, color })),
      }),
      display,
    );
    const placed = placePoint(full, 'tag', displayPoint(400, 400), line);
    expect(placed.calibration.tags.at(-1)?.value).toMatchObject({
      name: 'Tag 49',
      color: palette[0],
    });
  });

  it('warns (never blocks) within 30 px of another tag or camera', () => {
    expect(nearestWithin({ x: 0, y: 0 }, [{ x: 30, y: 0 }])).not.toBeNull();
    expect(nearestWithin({ x: 0, y: 0 }, [{ x: 30.01, y: 0 }])).toBeNull();
    let calibration = placePoint(
      emptyCalibration(),
      'tag',
      displayPoint(100, 100),
      line,
    ).calibration;
    calibration = placePoint(calibration, 'camera', displayPoint(200, 100), line).calibration;
    const near = placePoint(calibration, 'camera', displayPoint(118, 124), line);
    expect(near.nearby).toEqual({ name: 'Tag 1', distance: 30 });
    expect(near.calibration.cameras).toHaveLength(2);
    expect(placePoint(calibration, 'tag', displayPoint(170, 100), line).nearby?.name).toBe(
      'Camera 1',
    );
    expect(placePoint(calibration, 'tag', displayPoint(150, 100), line).nearby).toBeNull();
  });

  it('moves items by keyboard steps, keeping them whole on the plan', () => {
    let calibration = placePoint(emptyCalibration(), 'tag', displayPoint(5, 5), line).calibration;
    const key = calibration.tags[0]?.key ?? '';
    calibration = moveItem(calibration, 'tag', key, { dx: -10, dy: 1 }, display);
    expect(calibration.tags[0]?.value).toMatchObject({ x: 0, y: 6 });
    const zone = addHotZone(calibration, { x: 770, y: 10, width: 25, height: 30 });
    const zoneKey = zone?.key ?? '';
    const moved = moveItem(
      zone?.calibration ?? calibration,
      'hotZone',
      zoneKey,
      { dx: 10, dy: 0 },
      display,
    );
    expect(moved.hotZones[0]?.value).toMatchObject({ x: 775, y: 10, width: 25 });
  });
});

describe('configuration (spec §3)', () => {
  it('keeps every field it does not edit, so a save never drops the path calibration', () => {
    const saved = configuration({
      tags: [{ x: 10, y: 20, name: 'Gate', qrCode: 'LC1-TAG-01', id: 7, type: 'qr', status: 'x' }],
      coordinateSystem: { useSimpleMapping: false, pixelsPerMeter: 48, sourceImageWidth: 1 },
      slamPoints: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
      floorplanPoints: [
        [10, 10],
        [60, 10],
        [10, 60],
      ],
      forceAffine: true,
      yAxisFlip: true,
    });
    const calibration = calibrationFrom(saved, display);
    const result = toConfiguration(calibration, {
      base: saved,
      floorplanImage: '/api/floorplans/new.png',
      displaySize: display,
      sourceImage: { width: 1200, height: 750 },
    });
    expect(result).toEqual({
      ...saved,
      floorplanImage: '/api/floorplans/new.png',
      coordinateSystem: {
        useSimpleMapping: false,
        pixelsPerMeter: 48,
        sourceImageWidth: 1200,
        sourceImageHeight: 750,
      },
    });
  });

  it('starts empty with the defaults: simple mapping, 50 pixels per meter', () => {
    const result = toConfiguration(emptyCalibration(), {
      base: null,
      floorplanImage: '/api/floorplans/a.png',
      displaySize: display,
      sourceImage: { width: 1200, height: 750 },
    });
    expect(result).toEqual({
      floorplanImage: '/api/floorplans/a.png',
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
  });

  it('carries positions over when the plan was saved in another frame', () => {
    const saved = configuration({
      displaySize: { width: 800, height: 800 },
      tags: [{ x: 400, y: 400, name: 'Gate' }],
      hotZones: [{ x: 100, y: 80, width: 200, height: 160, name: 'Z' }],
    });
    const calibration = calibrationFrom(saved, display);
    expect(calibration.tags[0]?.value).toEqual({ x: 400, y: 250, name: 'Gate' });
    expect(calibration.hotZones[0]?.value).toEqual({
      x: 100,
      y: 50,
      width: 200,
      height: 100,
      name: 'Z',
    });
  });

  it('accepts pixels per meter of at least 0.1 (spec §5)', () => {
    expect(parsePixelsPerMeter('0.1')).toBe(0.1);
    expect(parsePixelsPerMeter('48.5')).toBe(48.5);
    for (const bad of ['', ' ', '0.09', '0', '-3', 'abc', 'Infinity']) {
      expect(parsePixelsPerMeter(bad)).toBeNull();
    }
  });

  it('explains what is wrong with an edited item', () => {
    const zone = { x: 10, y: 10, width: 50, height: 50, name: 'Z' };
    expect(itemProblem('hotZone', zone, display)).toBeNull();
    // A pasted direction control is named before the plan is saved, with the field.
    expect(itemProblem('hotZone', { ...zone, name: 'Filler \u202e' }, display)).toBe(
      'Name contains an invisible direction control (U+202E); type the text without it',
    );
    // Also a name of characters that print as nothing, which the server refuses as blank.
    for (const name of [' ', '\u200b', '\u3164', '\u2800 \u00ad']) {
      expect(itemProblem('hotZone', { ...zone, name }, display)).toBe(
        'Please enter a name for the hot zone',
      );
    }
    expect(itemProblem('hotZone', { ...zone, width: 20 }, display)).toBe(
      'A hot zone must be larger than 20 px in both directions',
    );
    expect(itemProblem('hotZone', { ...zone, x: 760 }, display)).toBe(
      'The item must lie on the plan (0–800 by 0–500 px)',
    );
    expect(itemProblem('tag', { x: Number.NaN, y: 1, name: 'T' }, display)).toBe(
      'X must be a number',
    );
    expect(itemProblem('tag', { x: 1, y: 1, name: 'T', qrCode: 'q'.repeat(1001) }, display)).toBe(
      'QR code must be at most 1000 characters',
    );
  });
});
