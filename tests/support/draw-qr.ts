// Draws a QR code (with its quiet zone of four modules) onto a 2D canvas, placed and tilted: the
// frames the QR tests and the capture bench decode.
import QRCode from 'qrcode';

export interface PlacedQr {
  text: string;
  /** Top-left corner of the code's quiet zone before tilting, in pixels. */
  x: number;
  y: number;
  /** Pixels per module. */
  module: number;
  /** Degrees clockwise about the code's centre. */
  angle?: number;
}

export function drawQr(context: OffscreenCanvasRenderingContext2D, code: PlacedQr): void {
  const { modules } = QRCode.create(code.text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 8) * code.module;
  context.save();
  context.translate(code.x + side / 2, code.y + side / 2);
  context.rotate(((code.angle ?? 0) * Math.PI) / 180);
  context.translate(-side / 2, -side / 2);
  context.fillStyle = '#f2f2f2';
  context.fillRect(0, 0, side, side);
  context.fillStyle = '#141414';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) {
        context.fillRect(
          (col + 4) * code.module,
          (row + 4) * code.module,
          code.module,
          code.module,
        );
      }
    }
  }
  context.restore();
}
