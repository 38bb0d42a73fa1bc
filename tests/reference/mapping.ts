// Reference mapping to floor-plan pixels with the spec §5 clamp, and the spec §9 display size.
// mapAndClampReference is also the bench's "plain JS loop" baseline for mapping.
import type { DisplayGeometry, ImageSize } from '../../workers/path-types.ts';
import { entries3, type Mat3 } from './linear-algebra.ts';

/** Spec §5: a mapped point whose denominator is this small is treated as at infinity. */
export const DENOMINATOR_MIN = 1e-10;

/**
 * Maps map-unit points (y negated first when flipY) through `matrix` to image pixels. A point
 * farther than twice the larger image dimension from the image centre, or with |w| ≤ 1e-10, is
 * clamped: each coordinate to [−dimension, 2·dimension] of its own axis, or to the centre when
 * it is not finite. The result goes to new arrays, or into `out` (as long as x; it may be x and y
 * themselves: each point is read before it is written).
 */
export function mapAndClampReference(
  matrix: Mat3,
  flipY: boolean,
  x: Float64Array,
  y: Float64Array,
  image: ImageSize,
  out?: { x: Float64Array; y: Float64Array },
): { x: Float64Array; y: Float64Array; clamped: number } {
  const { width, height } = image;
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = entries3(matrix);
  const cx = width / 2;
  const cy = height / 2;
  const limit = 2 * Math.max(width, height);
  if (out !== undefined && (out.x.length !== x.length || out.y.length !== x.length)) {
    throw new RangeError('mapAndClampReference: out must hold as many points as x and y');
  }
  const outX = out?.x ?? new Float64Array(x.length);
  const outY = out?.y ?? new Float64Array(x.length);
  let clamped = 0;
  for (let i = 0; i < x.length; i++) {
    const px = x[i]!;
    const py = flipY ? -y[i]! : y[i]!;
    const w = m6 * px + m7 * py + m8;
    let u = (m0 * px + m1 * py + m2) / w;
    let v = (m3 * px + m4 * py + m5) / w;
    const dx = u - cx;
    const dy = v - cy;
    if (!(dx * dx + dy * dy <= limit * limit && Math.abs(w) > DENOMINATOR_MIN)) {
      clamped++;
      if (Number.isFinite(u) && Number.isFinite(v)) {
        u = Math.min(Math.max(u, -width), 2 * width);
        v = Math.min(Math.max(v, -height), 2 * height);
      } else {
        u = cx;
        v = cy;
      }
    }
    outX[i] = u;
    outY[i] = v;
  }
  return { x: outX, y: outY, clamped };
}

/** Spec §9: at most 700×650, never upscaled; an unknown image counts as 800×600. */
export function displayGeometryReference(image: ImageSize | null): DisplayGeometry {
  const { width, height } = image ?? { width: 800, height: 600 };
  const scale = Math.min(700 / width, 650 / height, 1);
  return { width: width * scale, height: height * scale, scale };
}
