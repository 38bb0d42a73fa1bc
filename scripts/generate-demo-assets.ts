// Writes the demo dataset the server loads on an empty database: server/demo/dataset.json and
// server/demo/files/**. Run by hand (`npm run demo:assets`) when the demo changes; the output is
// committed, so neither the server nor CI needs ffmpeg. Deterministic: same bytes on every run
// with the same ffmpeg and zlib.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildDemo,
  paths,
  renderVideoFrame,
  VIDEO_FPS,
  VIDEO_SIZE,
  type VideoBuild,
} from './lib/demo-dataset.ts';
import { encodePng } from './lib/png.ts';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'demo');
const filesDir = join(demoDir, 'files');

function write(relative: string, contents: string | Uint8Array): void {
  const target = join(filesDir, relative);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, contents);
}

/** Pipes raw RGB frames into ffmpeg: H.264 main profile, yuv420p, moov first (faststart). */
async function encodeVideo(video: VideoBuild, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const { width, height } = VIDEO_SIZE;
  // One thread and bitexact flags: x264 output is then reproducible and carries no version tag.
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...[
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${width}x${height}`,
        '-r',
        String(VIDEO_FPS),
      ],
      ...['-i', '-', '-c:v', 'libx264', '-preset', 'slow', '-crf', '23', '-threads', '1'],
      ...['-profile:v', 'main', '-pix_fmt', 'yuv420p', '-g', String(VIDEO_FPS * 2)],
      ...['-movflags', '+faststart', '-map_metadata', '-1', '-fflags', '+bitexact'],
      ...['-flags:v', '+bitexact', target],
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const done = new Promise<void>((resolve, reject) => {
    ffmpeg.on('error', (error) =>
      reject(new Error(`Could not run ffmpeg (apt-get install -y ffmpeg): ${error.message}`)),
    );
    ffmpeg.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code} for ${target}`)),
    );
  });
  const frames = Math.round(video.plan.duration * VIDEO_FPS);
  for (let f = 0; f < frames; f++) {
    if (!ffmpeg.stdin.write(renderVideoFrame(video, f).data)) {
      await new Promise((resolve) => ffmpeg.stdin.once('drain', resolve));
    }
  }
  ffmpeg.stdin.end();
  await done;
}

/** Checks with ffprobe that the file is what Chromium plays: H.264, yuv420p, the planned length. */
function probeVideo(video: VideoBuild, target: string): void {
  const probe = spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,pix_fmt,width,height:format=duration',
      '-of',
      'json',
      target,
    ],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0) throw new Error(`ffprobe failed on ${target}: ${probe.stderr}`);
  const info = JSON.parse(probe.stdout) as {
    streams: { codec_name: string; pix_fmt: string; width: number; height: number }[];
    format: { duration: string };
  };
  const stream = info.streams[0];
  const duration = Number(info.format.duration);
  if (
    stream?.codec_name !== 'h264' ||
    stream.pix_fmt !== 'yuv420p' ||
    stream.width !== VIDEO_SIZE.width ||
    stream.height !== VIDEO_SIZE.height ||
    Math.abs(duration - video.plan.duration) > 0.1
  ) {
    throw new Error(`${target} is not the planned H.264 video: ${probe.stdout}`);
  }
}

async function main(): Promise<void> {
  const demo = buildDemo();
  // Start from an empty folder so files of removed videos do not linger in the commit.
  rmSync(filesDir, { recursive: true, force: true });
  for (const [relative, text] of demo.textFiles) write(relative, text);
  for (const [relative, image] of demo.images) write(relative, encodePng(image));
  for (const video of demo.videos) {
    const target = join(filesDir, paths.video(video.plan));
    await encodeVideo(video, target);
    probeVideo(video, target);
  }
  const datasetFile = join(demoDir, 'dataset.json');
  writeFileSync(datasetFile, `${JSON.stringify(demo.dataset, null, 2)}\n`);
  // The repository's format check covers dataset.json: leave it as Biome would print it.
  const biome = spawnSync('npx', ['biome', 'format', '--write', datasetFile], { stdio: 'inherit' });
  if (biome.status !== 0) throw new Error(`biome format failed on ${datasetFile}`);
  console.log(
    `Wrote ${demo.dataset.videos.length} videos, ${demo.images.size} images, ${demo.textFiles.size} keyframes files to ${filesDir}`,
  );
}

await main();
