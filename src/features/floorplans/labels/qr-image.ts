// A tag's QR code as an SVG image for its label: vector, so it prints sharp at any size.
import QRCode from 'qrcode';

/**
 * Error correction Q: a quarter of the symbol may be dirty, scratched or folded and it still
 * reads, where a label on a production line gets handled. Four modules of quiet zone (the
 * standard's minimum) are inside the image, so labels can be cut close to it.
 */
export const labelQrOptions = {
  type: 'svg',
  errorCorrectionLevel: 'Q',
  margin: 4,
  width: 256,
  color: { dark: '#000000', light: '#ffffff' },
} as const;

/** A data: URL of the code's QR symbol, for an <img>. Rejects a code too long for a QR symbol. */
export async function qrImageUrl(code: string): Promise<string> {
  const svg = await QRCode.toString(code, labelQrOptions);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
