// A minimal PNG codec for the demo assets: 8-bit RGB, no interlace. The encoder writes what the
// generator needs; the decoder exists so tests can check the committed images pixel by pixel.
import { deflateSync, inflateSync } from 'node:zlib';

export interface RgbImage {
  width: number;
  height: number;
  /** Row-major RGB triplets, width × height × 3 bytes. */
  data: Uint8Array;
}

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const COLOR_TYPE_RGB = 2;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it (ISO 3309, reflected, init and final xor 0xffffffff). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(payload, 8);
  view.setUint32(8 + payload.length, crc32(out.subarray(4, 8 + payload.length)));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Filter-type predictor for byte i of a row (bpp 3), given the current and previous raw rows. */
function predict(filter: number, row: Uint8Array, prev: Uint8Array, i: number): number {
  const left = i >= 3 ? row[i - 3]! : 0;
  const up = prev[i]!;
  const upLeft = i >= 3 ? prev[i - 3]! : 0;
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >>> 1;
    case 4:
      return paeth(left, up, upLeft);
    default:
      throw new Error(`PNG: unknown filter type ${filter}`);
  }
}

export function encodePng(image: RgbImage): Uint8Array {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`PNG: width and height must be positive integers, got ${width}×${height}`);
  }
  if (data.length !== width * height * 3) {
    throw new Error(`PNG: expected ${width * height * 3} RGB bytes, got ${data.length}`);
  }
  const stride = width * 3;
  const filtered = new Uint8Array(height * (stride + 1));
  const candidate = new Uint8Array(stride);
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = data.subarray(y * stride, (y + 1) * stride);
    // Pick the filter with the smallest sum of signed residuals: the usual libpng heuristic,
    // which keeps flat-colour drawings small.
    let best = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    for (let filter = 0; filter <= 4; filter++) {
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const r = (row[i]! - predict(filter, row, prev, i)) & 0xff;
        score += r < 128 ? r : 256 - r;
      }
      if (score < bestScore) {
        bestScore = score;
        best = filter;
      }
    }
    const offset = y * (stride + 1);
    filtered[offset] = best;
    for (let i = 0; i < stride; i++) {
      candidate[i] = (row[i]! - predict(best, row, prev, i)) & 0xff;
    }
    filtered.set(candidate, offset + 1);
    prev = row;
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, COLOR_TYPE_RGB, 0, 0, 0], 8);
  const parts = [
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(filtered, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Decodes the subset encodePng writes, checking the signature, every chunk's CRC and IHDR. */
export function decodePng(bytes: Uint8Array): RgbImage {
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw new Error('PNG: bad signature');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = SIGNATURE.length;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (!ended) {
    if (at + 12 > bytes.length) throw new Error(`PNG: truncated chunk at byte ${at}`);
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    const end = at + 8 + length;
    if (end + 4 > bytes.length) throw new Error(`PNG: chunk ${type} runs past the end`);
    const payload = bytes.subarray(at + 8, end);
    if (crc32(bytes.subarray(at + 4, end)) !== view.getUint32(end)) {
      throw new Error(`PNG: CRC mismatch in chunk ${type}`);
    }
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colorType, compression, filterMethod, interlace] = payload.subarray(8, 13);
      if (depth !== 8 || colorType !== COLOR_TYPE_RGB || compression || filterMethod || interlace) {
        throw new Error('PNG: only 8-bit RGB without interlace is supported');
      }
    } else if (type === 'IDAT') {
      idat.push(payload);
    } else if (type === 'IEND') {
      ended = true;
    }
    at = end + 4;
  }
  if (width === 0 || height === 0) throw new Error('PNG: missing IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  if (raw.length !== height * (stride + 1)) {
    throw new Error(`PNG: image data is ${raw.length} bytes, expected ${height * (stride + 1)}`);
  }
  const data = new Uint8Array(height * stride);
  let prev: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = data.subarray(y * stride, (y + 1) * stride);
    for (let i = 0; i < stride; i++) {
      row[i] = (raw[y * (stride + 1) + 1 + i]! + predict(filter, row, prev, i)) & 0xff;
    }
    prev = row;
  }
  return { width, height, data };
}
