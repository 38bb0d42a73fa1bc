import type { ImageSize } from './path-types.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A PNG's or GIF's width and height read from its header, without decoding it, so the path can be
 * mapped while the image still decodes. Null for anything else: a JPEG may carry an EXIF rotation
 * that decoding applies (as the calibrator's decoding does), so only its decoded size is right.
 */
export function imageSizeFromHeader(bytes: Uint8Array): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  let size: ImageSize | null = null;
  if (bytes.length >= 24 && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    if (ascii(12, 16) === 'IHDR') size = { width: view.getUint32(16), height: view.getUint32(20) };
  } else if (bytes.length >= 10 && /^GIF8[79]a$/.test(ascii(0, 6))) {
    size = { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  return size && size.width > 0 && size.height > 0 ? size : null;
}
