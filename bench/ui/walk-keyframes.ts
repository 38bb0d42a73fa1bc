// Seeded keyframe files of an operator walking a line for hours, for the UI bench: `index x y t`
// lines at 30 keyframes a second, walking 1.0–1.4 m/s between random waypoints with short stops,
// so the 12 px thinned path grows with the file (about one kept point per 11 lines on Blister
// Line 1's floor plan). Streamed in chunks: a 10^7-line file (about 300 MB) never sits in memory.
import { Readable } from 'node:stream';
import { createPrng } from '../lib/prng.ts';

/** Where the walk stays, in the map units of the keyframes file. */
export interface WalkArea {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/**
 * Blister Line 1 of the demo data: its calibration maps slam x 1..21 and, with yAxisFlip, file y
 * −11..−1 onto the floor plan (docs/demo-data.md). The walk keeps half a metre inside.
 */
export const blisterLineWalk: WalkArea = { minX: 1.5, maxX: 20.5, minY: -10.5, maxY: -1.5 };

const KEYFRAMES_PER_SECOND = 30;
const LINES_PER_CHUNK = 50_000;

/** The keyframes file as a stream of byte chunks; the same seed gives the same bytes. */
export function walkKeyframes(lines: number, seed: number, area: WalkArea = blisterLineWalk) {
  const random = createPrng(seed);
  const pick = (min: number, max: number) => min + random() * (max - min);
  let x = (area.minX + area.maxX) / 2;
  let y = (area.minY + area.maxY) / 2;
  let target = { x, y };
  let speed = 1.2;
  let pause = 0;

  function* chunks(): Generator<Buffer> {
    for (let start = 0; start < lines; start += LINES_PER_CHUNK) {
      const end = Math.min(lines, start + LINES_PER_CHUNK);
      const parts: string[] = [];
      for (let i = start; i < end; i++) {
        if (pause > 0) {
          pause--;
        } else {
          const dx = target.x - x;
          const dy = target.y - y;
          const distance = Math.hypot(dx, dy);
          const step = speed / KEYFRAMES_PER_SECOND;
          if (distance <= step) {
            x = target.x;
            y = target.y;
            target = { x: pick(area.minX, area.maxX), y: pick(area.minY, area.maxY) };
            speed = pick(1.0, 1.4);
            // One waypoint in four is a tag or a machine to look at: 1–3 s standing.
            if (random() < 0.25) pause = Math.round(pick(1, 3) * KEYFRAMES_PER_SECOND);
          } else {
            x += (dx / distance) * step;
            y += (dy / distance) * step;
          }
        }
        // SLAM jitter of a few millimetres.
        const jitterX = (random() - 0.5) * 0.006;
        const jitterY = (random() - 0.5) * 0.006;
        const t = i / KEYFRAMES_PER_SECOND;
        parts.push(
          `${i} ${(x + jitterX).toFixed(3)} ${(y + jitterY).toFixed(3)} ${t.toFixed(3)}\n`,
        );
      }
      yield Buffer.from(parts.join(''), 'latin1');
    }
  }
  return Readable.from(chunks());
}

/** The last keyframe's timestamp (seconds) of a file of `lines` keyframes. */
export const walkDuration = (lines: number) => (lines - 1) / KEYFRAMES_PER_SECOND;
