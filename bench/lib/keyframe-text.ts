// Seeded, realistic keyframe files for the bench: `index x y t` per line, '\n' endings,
// 3–6 decimals per number, a random walk in metres with rare SLAM glitches far outside.
import { createPrng } from './prng.ts';

/** Walk area in map units (metres); the bench calibration maps it onto the floor-plan image. */
export const walkArea = { width: 60, height: 40 } as const;

const powersOfTen = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];
const digit0 = 48;

/** Appends `value` with `decimals` fraction digits at `at`; returns the new end. */
function writeFixed(out: Uint8Array, at: number, value: number, decimals: number): number {
  let pos = at;
  const scale = powersOfTen[decimals]!;
  const scaled = Math.round(Math.abs(value) * scale);
  if (value < 0 && scaled !== 0) out[pos++] = 45; // '-'
  pos = writeInteger(out, pos, Math.floor(scaled / scale));
  out[pos++] = 46; // '.'
  let fraction = scaled % scale;
  for (let i = decimals - 1; i >= 0; i--) {
    out[pos + i] = digit0 + (fraction % 10);
    fraction = Math.floor(fraction / 10);
  }
  return pos + decimals;
}

function writeInteger(out: Uint8Array, at: number, value: number): number {
  let digits = 1;
  for (let p = 10; p <= value; p *= 10) digits++;
  let rest = value;
  for (let i = digits - 1; i >= 0; i--) {
    out[at + i] = digit0 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** The file for `lines` keyframes, generated from `seed` (same seed, same bytes). */
export function generateKeyframeText(lines: number, seed: number): Uint8Array {
  const random = createPrng(seed);
  // Longest line: 8-digit index, two "-1234.123456", a 7-digit time with 6 decimals, separators.
  const out = new Uint8Array(lines * 48);
  let pos = 0;
  let x = walkArea.width / 2;
  let y = walkArea.height / 2;
  let t = 0;
  for (let i = 0; i < lines; i++) {
    x = reflect(x + (random() - 0.5) * 0.2, walkArea.width);
    y = reflect(y + (random() - 0.5) * 0.2, walkArea.height);
    t += 0.03 + random() * 0.02;
    const glitch = random() < 1e-4;
    pos = writeInteger(out, pos, i);
    out[pos++] = 32;
    pos = writeFixed(out, pos, glitch ? (random() - 0.5) * 2000 : x, 3 + Math.floor(random() * 4));
    out[pos++] = 32;
    pos = writeFixed(out, pos, glitch ? (random() - 0.5) * 2000 : y, 3 + Math.floor(random() * 4));
    out[pos++] = 32;
    pos = writeFixed(out, pos, t, 3 + Math.floor(random() * 4));
    out[pos++] = 10;
  }
  return out.subarray(0, pos);
}

function reflect(v: number, max: number): number {
  if (v < 0) return -v;
  if (v > max) return 2 * max - v;
  return v;
}
