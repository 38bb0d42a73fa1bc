// A Y4M video for Chromium's fake camera (--use-file-for-fake-video-capture): QR codes drawn into
// the luma plane, one after another, each held for a second, then a blank frame; around each code
// the picture is noise that changes every frame, so the recording has a real camera's bitrate.
// Chromium loops the file, so the codes keep coming round.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

export interface FakeCameraOptions {
  width?: number;
  height?: number;
  fps?: number;
  /** Pixels per QR module. */
  scale?: number;
}

const WHITE = 235;
const BLACK = 16;

export function writeQrY4m(
  file: string,
  codes: readonly string[],
  options: FakeCameraOptions = {},
) {
  const { width = 480, height = 360, fps = 5, scale = 8 } = options;
  const lumaSize = width * height;
  const chromaSize = (width / 2) * (height / 2);
  const frames: Buffer[] = [];
  const frame = (luma: Buffer) => {
    frames.push(Buffer.from('FRAME\n'), luma, Buffer.alloc(chromaSize * 2, 128));
  };
  for (const code of codes) {
    const { modules } = QRCode.create(code, { errorCorrectionLevel: 'M' });
    const side = (modules.size + 8) * scale;
    const left = Math.floor((width - side) / 2);
    const top = Math.floor((height - side) / 2);
    for (let i = 0; i < fps; i++) {
      const luma = randomBytes(lumaSize);
      // The code with a white quiet zone of four modules.
      for (let y = top; y < top + side; y++)
        luma.fill(WHITE, y * width + left, y * width + left + side);
      for (let row = 0; row < modules.size; row++) {
        for (let col = 0; col < modules.size; col++) {
          if (!modules.get(row, col)) continue;
          for (let y = 0; y < scale; y++) {
            const start = (top + (row + 4) * scale + y) * width + left + (col + 4) * scale;
            luma.fill(BLACK, start, start + scale);
          }
        }
      }
      frame(luma);
    }
  }
  frame(Buffer.alloc(lumaSize, WHITE));
  const header = `YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`;
  writeFileSync(file, Buffer.concat([Buffer.from(header), ...frames]));
}
