// Recognises floor-plan images by their first bytes, never by the name or declared type.
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
