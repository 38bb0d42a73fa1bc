import { describe, expect, it } from 'vitest';
import { drawQr, type PlacedQr } from '../../../tests/support/draw-qr.ts';
import { decodeQrBitmap, decodeQrPixels } from './qr-client.ts';

const WIDTH = 1280;
const HEIGHT = 720;

/** A 1280×720 camera-like frame: grey noise with QR codes drawn at the given places and sizes. */
function frame(codes: PlacedQr[]) {
  const canvas = new OffscreenCanvas(WIDTH, HEIGHT);
  const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
  const noise = context.createImageData(WIDTH, HEIGHT);
  let x = 12345;
  for (let i = 0; i < noise.data.length; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const v = 60 + (x >>> 25);
    noise.data.set([v, v, v, 255], i);
  }
  context.putImageData(noise, 0, 0);
  for (const code of codes) drawQr(context, code);
  return canvas;
}

const pixelsOf = (canvas: OffscreenCanvas) => {
  const data = (canvas.getContext('2d') as OffscreenCanvasRenderingContext2D).getImageData(
    0,
    0,
    WIDTH,
    HEIGHT,
  );
  return { width: WIDTH, height: HEIGHT, pixels: data.data.buffer };
};

describe('QR decoding in the worker', () => {
  it('reads tag codes from camera-sized frames, several at once, small and tilted', async () => {
    const canvas = frame([
      { text: 'LC1-TAG-01', x: 80, y: 80, module: 6 },
      { text: 'LC1-TAG-02', x: 700, y: 120, module: 4, angle: 20 },
      { text: '{"serial":"PHONE-7","type":"camera"}', x: 420, y: 400, module: 5 },
    ]);
    const { codes, decoder } = await decodeQrPixels(pixelsOf(canvas));
    expect(decoder).toBe('zxing');
    expect([...codes].sort()).toEqual([
      'LC1-TAG-01',
      'LC1-TAG-02',
      '{"serial":"PHONE-7","type":"camera"}',
    ]);
  });

  it('answers nothing for a frame without a code, and reads bitmaps (camera frames)', async () => {
    expect((await decodeQrPixels(pixelsOf(frame([])))).codes).toEqual([]);
    const bitmap = frame([
      { text: 'LC2-TAG-07', x: 500, y: 200, module: 7 },
    ]).transferToImageBitmap();
    expect((await decodeQrBitmap(bitmap)).codes).toEqual(['LC2-TAG-07']);
  });
});
