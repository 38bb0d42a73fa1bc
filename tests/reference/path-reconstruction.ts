// Float64 reference of the anchored dead reckoning (workers/path-reconstruction.ts), written from
// the method in docs/analysis.md: every position summed from the steps again for each time, and
// the heading/stride factors found by stacking the least-squares rows (prior rows included) and
// solving the 2×2 normal equations, instead of the closed complex forms the engine uses.
import type { Anchor, Steps } from '../../workers/path-reconstruction.ts';

/** Unit-stride reckoned position and distance walked at time t. */
function reckon(steps: Steps, t: number): { x: number; y: number; d: number } {
  let x = 0;
  let y = 0;
  let d = 0;
  let prev = steps.start;
  for (let s = 0; s < steps.t.length; s++) {
    const ts = steps.t[s] as number;
    if (ts <= t) {
      x += steps.hx[s] as number;
      y += steps.hy[s] as number;
      d += 1;
      prev = ts;
      continue;
    }
    if (t > prev) {
      const f = (t - prev) / (ts - prev);
      x += f * (steps.hx[s] as number);
      y += f * (steps.hy[s] as number);
      d += f;
    }
    break;
  }
  return { x, y, d };
}

/** Least squares for (r, i) from rows a·r + b·i = v. */
function solve2(rows: [number, number, number][]): [number, number] {
  let aa = 0;
  let ab = 0;
  let bb = 0;
  let av = 0;
  let bv = 0;
  for (const [a, b, v] of rows) {
    aa += a * a;
    ab += a * b;
    bb += b * b;
    av += a * v;
    bv += b * v;
  }
  const det = aa * bb - ab * ab;
  return [(bb * av - ab * bv) / det, (aa * bv - ab * av) / det];
}

/** Rows saying "(r, i) turns and scales D onto P": x and y components. */
const rowsFor = (dx: number, dy: number, px: number, py: number): [number, number, number][] => [
  [dx, -dy, px],
  [dy, dx, py],
];

export function anchorDeadReckoningReference(
  steps: Steps,
  anchors: readonly Anchor[],
  times: ArrayLike<number>,
  stride: number,
  prior: number,
): { x: number[]; y: number[] } {
  const at = anchors.map((a) => reckon(steps, a.t));
  const segments = anchors.slice(1).map((b, k) => {
    const a = anchors[k] as Anchor;
    const r0 = at[k] as { x: number; y: number; d: number };
    const r1 = at[k + 1] as { x: number; y: number; d: number };
    return {
      dx: stride * (r1.x - r0.x),
      dy: stride * (r1.y - r0.y),
      px: b.x - a.x,
      py: b.y - a.y,
    };
  });
  const [cr, ci] = solve2(segments.flatMap((s) => rowsFor(s.dx, s.dy, s.px, s.py)));
  const w = Math.sqrt(prior);
  const factors = segments.map((s) =>
    solve2([...rowsFor(s.dx, s.dy, s.px, s.py), [w, 0, w * cr], [0, w, w * ci]]),
  );
  const x: number[] = [];
  const y: number[] = [];
  const last = anchors.length - 1;
  for (let j = 0; j < times.length; j++) {
    const t = times[j] as number;
    let k = 0;
    while (k < last - 1 && (anchors[k + 1] as Anchor).t <= t) k++;
    const before = t < (anchors[0] as Anchor).t;
    const after = t > (anchors[last] as Anchor).t;
    const base = before ? 0 : after ? last : k;
    const [r, i] = factors[k] as [number, number];
    const here = reckon(steps, t);
    const from = at[base] as { x: number; y: number; d: number };
    const vx = stride * (here.x - from.x);
    const vy = stride * (here.y - from.y);
    let px = (anchors[base] as Anchor).x + r * vx - i * vy;
    let py = (anchors[base] as Anchor).y + i * vx + r * vy;
    if (!before && !after) {
      const s = segments[k] as { dx: number; dy: number; px: number; py: number };
      const a0 = anchors[k] as Anchor;
      const a1 = anchors[k + 1] as Anchor;
      const d0 = from.d;
      const d1 = (at[k + 1] as { d: number }).d;
      const f = d1 > d0 ? (here.d - d0) / (d1 - d0) : a1.t > a0.t ? (t - a0.t) / (a1.t - a0.t) : 1;
      px += f * (s.px - (r * s.dx - i * s.dy));
      py += f * (s.py - (i * s.dx + r * s.dy));
    }
    x.push(px);
    y.push(py);
  }
  return { x, y };
}
