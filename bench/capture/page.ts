// The capture bench's page (served by Vite, driven by bench/capture.bench.ts): the product's QR
// and SHA-256 workers beside their baselines (jsQR on the same frames, WebCrypto's one-shot digest
// of the same bytes), on data generated here.
import jsQR from 'jsqr';
import { decodeQrPixels, warmUpQr } from '../../src/lib/capture/qr-client.ts';
import { runningSha256 } from '../../src/lib/capture/sha256-client.ts';
import { drawQr, type PlacedQr } from '../../tests/support/draw-qr.ts';

const WIDTH = 1280;
const HEIGHT = 720;

/** Camera-like frames: a scene, and 0–2 codes of several sizes and tilts (the first two have none). */
function makeFrames(count: number): ImageData[] {
  const frames: ImageData[] = [];
  let seed = 99;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  for (let f = 0; f < count; f++) {
    const canvas = new OffscreenCanvas(WIDTH, HEIGHT);
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
    // A camera-like scene: a lit gradient, a few dark and light shapes, mild sensor noise.
    const noise = context.createImageData(WIDTH, HEIGHT);
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const v = 90 + (x * 60) / WIDTH + (y * 40) / HEIGHT + Math.floor(random() * 16);
        noise.data.set([v, v, v, 255], (y * WIDTH + x) * 4);
      }
    }
    context.putImageData(noise, 0, 0);
    for (let r = 0; r < 6; r++) {
      const shade = Math.floor(random() * 255);
      context.fillStyle = `rgb(${shade} ${shade} ${shade})`;
      context.fillRect(
        random() * WIDTH,
        random() * HEIGHT,
        40 + random() * 200,
        20 + random() * 120,
      );
    }
    const codes: PlacedQr[] = [];
    const n = f < 2 ? 0 : 1 + (f % 2);
    for (let c = 0; c < n; c++) {
      codes.push({
        text: `LC${1 + (f % 3)}-TAG-0${1 + ((f + c) % 8)}`,
        module: 3 + Math.floor(random() * 5),
        angle: (f % 4) * 8 - 12,
        x: c === 0 ? 120 + Math.floor(random() * 300) : 760 + Math.floor(random() * 150),
        y: 100 + Math.floor(random() * 250),
      });
    }
    for (const code of codes) drawQr(context, code);
    frames.push(context.getImageData(0, 0, WIDTH, HEIGHT));
  }
  return frames;
}

let frames: ImageData[] = [];

export const benchApi = {
  async prepareFrames(count: number) {
    frames = makeFrames(count);
    await warmUpQr();
    return frames.length;
  },
  /** Decodes every frame in the worker (a copy of its pixels moves there, as a camera frame would). */
  async zxingPass(): Promise<{ ms: number; codes: string[][] }> {
    const codes: string[][] = [];
    const start = performance.now();
    for (const frame of frames) {
      const pixels = frame.data.slice().buffer;
      codes.push((await decodeQrPixels({ width: WIDTH, height: HEIGHT, pixels })).codes);
    }
    return { ms: performance.now() - start, codes };
  },
  /** jsQR on the same frames (it reads one code a frame). */
  jsqrPass(): { ms: number; codes: (string | null)[] } {
    const codes: (string | null)[] = [];
    const start = performance.now();
    for (const frame of frames) codes.push(jsQR(frame.data, WIDTH, HEIGHT)?.data ?? null);
    return { ms: performance.now() - start, codes };
  },
  /** The product's path: parts of `partBytes` as Blobs into the running hash, then the digest. */
  async streamedSha256(totalBytes: number, partBytes: number) {
    const data = bytes(totalBytes);
    const parts: Blob[] = [];
    for (let at = 0; at < data.length; at += partBytes)
      parts.push(new Blob([data.subarray(at, at + partBytes)]));
    const start = performance.now();
    const hash = await runningSha256();
    for (const part of parts) await hash.update(part);
    const digest = await hash.digest();
    return { ms: performance.now() - start, digest };
  },
  async webCryptoSha256(totalBytes: number) {
    const data = bytes(totalBytes);
    const start = performance.now();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { ms: performance.now() - start, digest: hex };
  },
};

let cached: Uint8Array<ArrayBuffer> | null = null;
function bytes(length: number): Uint8Array<ArrayBuffer> {
  if (cached?.length === length) return cached;
  cached = new Uint8Array(length);
  let x = 7;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    cached[i] = x >>> 24;
  }
  return cached;
}

(window as unknown as { bench: typeof benchApi }).bench = benchApi;
document.title = 'ready';
