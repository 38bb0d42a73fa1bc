// Test videos and images made on the spot with the ffmpeg the analysis finds (nothing committed, nothing
// downloaded): a test pattern of the given length, H.264 in MP4 like a phone's recording.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateFfmpeg } from '../../server/analysis/ffmpeg.ts';

const run = (args: string[]) =>
  execFileSync(locateFfmpeg(process.env.FFMPEG_PATH ?? null), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    ...args,
    '-y',
  ]);

export function makeTestVideo(
  seconds: number,
  options: { width?: number; height?: number; fps?: number; dir?: string } = {},
): string {
  const { width = 320, height = 180, fps = 10 } = options;
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lc-test-video-'));
  const file = path.join(dir, `test-${width}x${height}-${seconds}s.mp4`);
  if (fs.existsSync(file)) return file;
  run([
    '-i',
    `testsrc=size=${width}x${height}:rate=${fps}`,
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    file,
  ]);
  return file;
}

/** A single-colour PNG of the given size (a keyframe image for detector tests). */
export function makeTestImage(file: string, width: number, height: number): void {
  run(['-i', `color=c=blue:s=${width}x${height}`, '-frames:v', '1', file]);
}
