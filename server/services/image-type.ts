// Recognises floor-plan images by their first bytes, never by the name or declared type.
import { crc32 } from 'node:zlib';
import { imageSizeFromHeader } from '../../workers/image-header.ts';

export type ImageType = { ext: 'png' | 'jpg' | 'gif'; contentType: string };

export function sniffImage(bytes: Buffer): ImageType | null {
  const starts = (signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { ext: 'png', contentType: 'image/png' };
  }
  if (starts([0xff, 0xd8, 0xff])) return { ext: 'jpg', contentType: 'image/jpeg' };
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return { ext: 'gif', contentType: 'image/gif' };
  return null;
}

/** A baseline or progressive JPEG's size from its first start-of-frame segment; null if none. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame's height and width.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

/**
 * The image's width and height as its header states them: a file that only starts like an image
 * (a bare signature, a cut-off header) has none, and is refused before it reaches the calibrator.
 */
function headerSize(bytes: Buffer, type: ImageType): { width: number; height: number } | null {
  const size = type.ext === 'jpg' ? jpegSize(bytes) : imageSizeFromHeader(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

/** Floor plans smaller than this hold no tag or zone to place; larger ones a browser cannot draw. */
export const FLOORPLAN_SIDE_PX = { min: 32, max: 16_384 };

/** Whether a PNG's chunks run whole, each with its CRC, from IHDR through IDAT to IEND. */
function pngComplete(bytes: Buffer): boolean {
  let at = 8;
  let sawData = false;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const end = at + 8 + length;
    if (end + 4 > bytes.length) return false;
    if (crc32(bytes.subarray(at + 4, end)) !== bytes.readUInt32BE(end)) return false;
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData;
    at = end + 4;
  }
  return false;
}

/** Whether a JPEG reaches its scan and ends with the end-of-image marker after it. */
function jpegComplete(bytes: Buffer): boolean {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    if (bytes[at + 1] === 0xda) {
      const eoi = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return eoi > at;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return false;
}

/**
 * Why an upload cannot serve as a floor plan, or null: a file cut short or damaged (a browser
 * could not draw it, and it would replace a working plan), or a size outside FLOORPLAN_SIDE_PX.
 * Checked from the bytes' structure, without decoding the pixels.
 */
export function floorplanImageProblem(bytes: Buffer, type: ImageType): string | null {
  const name = type.contentType.slice(6).toUpperCase();
  const size = headerSize(bytes, type);
  if (!size) return `image is not a readable ${name} file: its header gives no size`;
  const whole =
    type.ext === 'png'
      ? pngComplete(bytes)
      : type.ext === 'jpg'
        ? jpegComplete(bytes)
        : bytes[bytes.length - 1] === 0x3b;
  if (!whole) return `image is not a complete ${name} file: it is cut short or damaged`;
  const { min, max } = FLOORPLAN_SIDE_PX;
  const side = Math.min(size.width, size.height);
  if (side < min || Math.max(size.width, size.height) > max) {
    return `image must be ${min} to ${max} px on each side (this one is ${size.width} × ${size.height})`;
  }
  return null;
}
