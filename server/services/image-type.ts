// Recognises floor-plan images by their first bytes, never by the name or declared type.
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
export function headerSize(
  bytes: Buffer,
  type: ImageType,
): { width: number; height: number } | null {
  const size = type.ext === 'jpg' ? jpegSize(bytes) : imageSizeFromHeader(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
