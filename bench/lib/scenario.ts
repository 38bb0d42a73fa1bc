// The bench's fixed inspection: a floor-plan image, a 4-point calibration with mild perspective
// that maps the keyframe walk area onto it, 200 tags, and seeded calibrations for the solvers.
import type { Calibration, ImageSize, XY } from '../../workers/path-types.ts';
import { walkArea } from './keyframe-text.ts';
import { createPrng } from './prng.ts';

export const benchImage: ImageSize = { width: 2000, height: 1400 };

export const benchCalibration: Calibration = {
  slamPoints: [
    [0, 0],
    [walkArea.width, 0],
    [walkArea.width, walkArea.height],
    [0, walkArea.height],
  ],
  floorplanPoints: [
    [150, 120],
    [1850, 90],
    [1900, 1300],
    [100, 1350],
  ],
};

/** 200 tags spread over the mapped walk area (image pixels). */
export function benchTags(seed: number): XY[] {
  const random = createPrng(seed);
  return Array.from({ length: 200 }, () => [150 + random() * 1700, 120 + random() * 1180] as const);
}

/** Random convex-ish quadrilateral (or triangle) pairs in general position, as calibrations. */
export function randomCalibrations(count: number, pairs: 3 | 4, seed: number): Calibration[] {
  const random = createPrng(seed);
  const jitter = (v: number, amount: number) => v + (random() - 0.5) * amount;
  // Corners in order around the rectangle, so the quadrilaterals stay convex.
  const corners: XY[] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  return Array.from({ length: count }, () => {
    const mapWidth = 10 + random() * 90;
    const mapHeight = 10 + random() * 90;
    const slamPoints = corners
      .slice(0, pairs)
      .map(
        ([u, v]) =>
          [jitter(u * mapWidth, mapWidth * 0.3), jitter(v * mapHeight, mapHeight * 0.3)] as const,
      );
    const floorplanPoints = corners
      .slice(0, pairs)
      .map(([u, v]) => [jitter(200 + u * 1600, 300), jitter(150 + v * 1100, 300)] as const);
    return { slamPoints, floorplanPoints };
  });
}
