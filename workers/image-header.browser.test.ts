import { describe, expect, test } from 'vitest';
import { imageSizeFromHeader } from './image-header.ts';

async function encoded(
  type: string,
  width: number,
  height: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')?.fillRect(0, 0, 1, 1);
  return new Uint8Array(await (await canvas.convertToBlob({ type })).arrayBuffer());
}

describe('image size from the header', () => {
  test('a PNG: the IHDR size, equal to the decoded size', async () => {
    const png = await encoded('image/png', 1201, 751);
    expect(imageSizeFromHeader(png)).toEqual({ width: 1201, height: 751 });
    const bitmap = await createImageBitmap(new Blob([png]));
    expect([bitmap.width, bitmap.height]).toEqual([1201, 751]);
  });

  test('a GIF: the logical screen size (little-endian)', () => {
    const gif = Uint8Array.from([...new TextEncoder().encode('GIF89a'), 0x2c, 0x01, 0xc8, 0x00]);
    expect(imageSizeFromHeader(gif)).toEqual({ width: 300, height: 200 });
  });

  test('JPEG, truncated and unknown bytes: null (decode instead)', async () => {
    expect(imageSizeFromHeader(await encoded('image/jpeg', 40, 30))).toBeNull();
    expect(imageSizeFromHeader((await encoded('image/png', 40, 30)).subarray(0, 20))).toBeNull();
    expect(imageSizeFromHeader(new TextEncoder().encode('<svg></svg>'))).toBeNull();
    expect(imageSizeFromHeader(new Uint8Array(0))).toBeNull();
  });
});
