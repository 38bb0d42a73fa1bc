// ffmpeg for the analysis: found on FFMPEG_PATH, else on PATH, else the static binary that the
// npm package @ffmpeg-installer/<platform>-<arch> ships (an optional dependency, so `npm install`
// alone brings it; its tarball keeps the executable bit, so npm skipping its install script is fine).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export class FfmpegNotFoundError extends Error {}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

function fromNpmPackage(): string | null {
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve(
      `@ffmpeg-installer/${process.platform}-${process.arch}/package.json`,
    );
    const binary = path.join(
      path.dirname(manifest),
      process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg',
    );
    fs.accessSync(binary, fs.constants.X_OK);
    return binary;
  } catch {
    return null;
  }
}

/** The ffmpeg to run, or an error that names both ways of providing one. */
export function locateFfmpeg(configured: string | null): string {
  if (configured) {
    try {
      fs.accessSync(configured, fs.constants.X_OK);
      return configured;
    } catch {
      throw new FfmpegNotFoundError(
        `FFMPEG_PATH names ${configured}, which is not an executable file`,
      );
    }
  }
  const found = onPath('ffmpeg') ?? fromNpmPackage();
  if (found) return found;
  throw new FfmpegNotFoundError(
    'ffmpeg was not found: install it on PATH (apt-get install -y ffmpeg) or set FFMPEG_PATH, ' +
      `or run npm install so the package @ffmpeg-installer/${process.platform}-${process.arch} brings one`,
  );
}

interface RunResult {
  code: number | null;
  stderr: string;
  /** Standard output, when asked for (raw frames). */
  stdout: Buffer;
}

/** Runs ffmpeg, collecting stderr (bounded) and, if asked, stdout; the signal kills it. */
export function runFfmpeg(
  binary: string,
  args: string[],
  signal?: AbortSignal,
  options: { stdout?: boolean; onStderr?: (chunk: string) => void } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-hide_banner', '-nostdin', ...args], {
      stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
      signal,
    });
    const chunks: Buffer[] = [];
    const out: Buffer[] = [];
    let kept = 0;
    child.stderr?.on('data', (chunk: Buffer) => {
      // showinfo prints a line per selected frame: keep plenty, but never without bound.
      if (kept < 64 * 1024 * 1024) chunks.push(chunk);
      kept += chunk.length;
      options.onStderr?.(chunk.toString('utf8'));
    });
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stderr: Buffer.concat(chunks).toString('utf8'),
        stdout: Buffer.concat(out),
      }),
    );
  });
}

export interface ProbeResult {
  /** Seconds; from the container, else from reading every packet once. */
  duration: number;
  container: string;
  codec: string;
  width: number;
  height: number;
}

/** Thrown for input that is not a usable video (the job fails without retrying). */
export class NotAVideoError extends Error {}

const hms = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);

export async function probe(
  binary: string,
  file: string,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  const { code, stderr } = await runFfmpeg(binary, ['-i', file], signal);
  const input = /Input #0, ([^\s]+), from/.exec(stderr);
  if (!input?.[1]) {
    const invalid =
      /(moov atom not found|Invalid data found when processing input|EBML header parsing failed)/.exec(
        stderr,
      );
    if (invalid) throw new NotAVideoError(`not a readable video file (ffmpeg: ${invalid[1]})`);
    // Anything else (ffmpeg itself failing) may pass on a retry.
    const last = stderr.trim().split('\n').at(-1) ?? '';
    throw new Error(`ffmpeg could not read the file (exit ${code}): ${last}`);
  }
  const stream = /Stream #0:\d+[^\n]*?: Video: (\w+)[^\n]*?, (\d{1,5})x(\d{1,5})/.exec(stderr);
  if (!stream?.[1])
    throw new NotAVideoError(`the file has no video stream (container ${input[1]})`);
  const width = Number(stream[2]);
  const height = Number(stream[3]);
  if (width === 0 || height === 0) throw new NotAVideoError('the video stream has no picture size');
  const d = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(stderr);
  let duration = d ? hms(d[1] ?? '0', d[2] ?? '0', d[3] ?? '0') : Number.NaN;
  if (!(duration > 0)) {
    // Recorders that stream (MediaRecorder WebM) often write no duration: read the packets once.
    const pass = await runFfmpeg(
      binary,
      ['-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'],
      signal,
    );
    const times = [...pass.stderr.matchAll(/time=(\d+):(\d\d):(\d\d(?:\.\d+)?)/g)];
    const last = times.at(-1);
    duration = last ? hms(last[1] ?? '0', last[2] ?? '0', last[3] ?? '0') : Number.NaN;
  }
  if (!(duration > 0))
    throw new NotAVideoError('the video has no readable frames (truncated or empty)');
  return { duration, container: input[1], codec: stream[1], width, height };
}

/** Widest keyframe image stored: enough for a reviewer and for a detector's input. */
export const KEYFRAME_MAX_WIDTH = 640;

export interface ExtractedFrame {
  /** Seconds on the video's clock (the frame's exact presentation time). */
  time: number;
  file: string;
}

/**
 * Writes one PNG per selected frame into `outDir` in a single decoding pass: the first frame of
 * every `interval` seconds, plus the first frame at or after each of `extraTimes`.
 */
export async function extractKeyframes(
  binary: string,
  file: string,
  outDir: string,
  interval: number,
  extraTimes: readonly number[],
  signal?: AbortSignal,
  /** Called with the video time of each frame written, as ffmpeg reports it. */
  onFrame?: (time: number) => void,
): Promise<ExtractedFrame[]> {
  const terms = [
    `isnan(prev_selected_t)`,
    `gte(floor(t/${interval}),floor(prev_selected_t/${interval})+1)`,
  ];
  for (const time of [...new Set(extraTimes)]) {
    const at = time.toFixed(6);
    terms.push(`gte(t,${at})*lt(prev_t,${at})`);
  }
  const filter = `select='${terms.join('+')}',scale='min(${KEYFRAME_MAX_WIDTH},iw)':-2,showinfo`;
  const pattern = path.join(outDir, 'frame-%06d.png');
  const { code, stderr } = await runFfmpeg(
    binary,
    ['-i', file, '-map', '0:v:0', '-an', '-vf', filter, '-vsync', 'vfr', '-f', 'image2', pattern],
    signal,
    {
      onStderr: (text) => {
        for (const match of text.matchAll(/pts_time:(\S+)/g)) onFrame?.(Number(match[1]));
      },
    },
  );
  if (code !== 0) {
    const last = stderr.trim().split('\n').at(-1) ?? '';
    throw new Error(`ffmpeg could not extract keyframes (exit ${code}): ${last}`);
  }
  const base = /config in time_base: (\d+)\/(\d+)/.exec(stderr);
  const num = Number(base?.[1] ?? 0);
  const den = Number(base?.[2] ?? 0);
  const frames: ExtractedFrame[] = [];
  for (const match of stderr.matchAll(/\] n: *(\d+) pts: *(-?\d+) pts_time:(\S+)/g)) {
    const n = Number(match[1]);
    const time = den > 0 ? (Number(match[2]) * num) / den : Number(match[3]);
    frames.push({
      time: Math.max(0, time),
      file: path.join(outDir, `frame-${String(n + 1).padStart(6, '0')}.png`),
    });
  }
  return frames;
}
