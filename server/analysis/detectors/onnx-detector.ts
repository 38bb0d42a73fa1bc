// DETECTOR=onnx: a YOLO-family detection model exported to ONNX (Ultralytics YOLOv8/YOLO11 layout:
// input [1, 3, S, S] RGB in 0..1, output [1, 4 + classes, anchors] with cx, cy, w, h in input
// pixels and one score per class), run with onnxruntime-node on the CPU. Each keyframe is
// letterboxed to S×S (ffmpeg scales it, the padding is grey 114 as in training), the output
// decoded, boxes above the threshold kept, overlapping boxes of a class suppressed (NMS), and
// the boxes mapped back to fractions of the keyframe.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DetectorConfig } from '../../config.ts';
import { runFfmpeg } from '../ffmpeg.ts';
import type { Detection, Detector, KeyframeImage } from './detector.ts';
import { classNames, onnxMetadata } from './onnx-metadata.ts';

export type OnnxDetectorOptions = Omit<Extract<DetectorConfig, { kind: 'onnx' }>, 'kind'>;

/** Where the letterboxed picture sits in the model's input. */
export interface Letterbox {
  inputSize: number;
  scale: number;
  padX: number;
  padY: number;
  width: number;
  height: number;
}

export function letterbox(width: number, height: number, inputSize: number): Letterbox {
  const scale = Math.min(inputSize / width, inputSize / height);
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  return {
    inputSize,
    scale,
    padX: Math.floor((inputSize - w) / 2),
    padY: Math.floor((inputSize - h) / 2),
    width,
    height,
  };
}

const iou = (a: Detection['box'], b: Detection['box']) => {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = w * h;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
};

/**
 * Decodes a [1, 4 + classes, anchors] output: the best class per anchor at or above `threshold`,
 * then per-class non-maximum suppression at `iouThreshold`, highest confidence first.
 */
export function decodeYolo(
  output: Float32Array,
  dims: readonly number[],
  box: Letterbox,
  names: readonly string[],
  threshold: number,
  iouThreshold: number,
): Detection[] {
  const channels = dims[1] ?? 0;
  const anchors = dims[2] ?? 0;
  if (dims.length !== 3 || channels < 5 || output.length !== channels * anchors) {
    throw new Error(
      `the model's output has shape [${dims.join(', ')}]; expected [1, 4 + classes, anchors]`,
    );
  }
  const candidates: Detection[] = [];
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  for (let a = 0; a < anchors; a++) {
    let best = -1;
    let score = threshold;
    for (let c = 4; c < channels; c++) {
      const s = output[c * anchors + a] as number;
      if (s >= score) {
        score = s;
        best = c - 4;
      }
    }
    if (best < 0) continue;
    const cx = output[a] as number;
    const cy = output[anchors + a] as number;
    const w = output[2 * anchors + a] as number;
    const h = output[3 * anchors + a] as number;
    const toX = (x: number) => clamp((x - box.padX) / box.scale, box.width) / box.width;
    const toY = (y: number) => clamp((y - box.padY) / box.scale, box.height) / box.height;
    candidates.push({
      label: names[best] ?? `class ${best}`,
      conf: Math.min(1, score),
      box: [toX(cx - w / 2), toY(cy - h / 2), toX(cx + w / 2), toY(cy + h / 2)],
    });
  }
  candidates.sort((p, q) => q.conf - p.conf);
  const kept: Detection[] = [];
  for (const candidate of candidates) {
    const overlaps = kept.some(
      (k) => k.label === candidate.label && iou(k.box, candidate.box) > iouThreshold,
    );
    if (!overlaps) kept.push(candidate);
  }
  return kept;
}

/** The keyframe as the model's input: letterboxed, CHW planes of floats in 0..1. */
async function modelInput(
  ffmpeg: string,
  image: KeyframeImage,
  box: Letterbox,
  signal: AbortSignal,
): Promise<Float32Array> {
  const w = Math.round(box.width * box.scale);
  const h = Math.round(box.height * box.scale);
  const { code, stdout, stderr } = await runFfmpeg(
    ffmpeg,
    ['-i', image.file, '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    signal,
    { stdout: true },
  );
  if (code !== 0 || stdout.length !== w * h * 3) {
    throw new Error(`ffmpeg could not read ${image.filename}: ${stderr.trim().split('\n').at(-1)}`);
  }
  const size = box.inputSize;
  const plane = size * size;
  const input = new Float32Array(3 * plane).fill(114 / 255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = (y * w + x) * 3;
      const to = (y + box.padY) * size + x + box.padX;
      input[to] = (stdout[from] as number) / 255;
      input[plane + to] = (stdout[from + 1] as number) / 255;
      input[2 * plane + to] = (stdout[from + 2] as number) / 255;
    }
  }
  return input;
}

export async function createOnnxDetector(
  options: OnnxDetectorOptions,
  ffmpeg: () => string,
): Promise<Detector> {
  let ort: typeof import('onnxruntime-node');
  try {
    ort = await import('onnxruntime-node');
  } catch {
    throw new Error('DETECTOR=onnx needs the package onnxruntime-node: run npm install');
  }
  const bytes = await fs.readFile(options.model).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`DETECTOR_MODEL ${options.model} cannot be read (${error.code})`);
  });
  const metadata = onnxMetadata(bytes);
  const names = options.labels
    ? (await fs.readFile(options.labels, 'utf8'))
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : classNames(metadata.get('names'));
  const session = await ort.InferenceSession.create(bytes);
  const [inputName] = session.inputNames;
  const [outputName] = session.outputNames;
  const shape = session.inputMetadata.find((m) => m.name === inputName);
  const dims = shape && 'shape' in shape ? shape.shape : [];
  const side = dims[3];
  const inputSize = typeof side === 'number' && side > 0 ? side : 640;
  if (!inputName || !outputName) throw new Error('DETECTOR_MODEL has no input or no output');
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return {
    info: {
      name: `onnx ${path.basename(options.model)}`,
      version: [metadata.get('version'), `sha256:${digest}`].filter(Boolean).join(' '),
      threshold: options.threshold,
    },
    detects: true,
    async detect(image, signal) {
      const box = letterbox(image.width, image.height, inputSize);
      const input = await modelInput(ffmpeg(), image, box, signal);
      const tensor = new ort.Tensor('float32', input, [1, 3, inputSize, inputSize]);
      const result = await session.run({ [inputName]: tensor });
      const output = result[outputName];
      if (!output || !(output.data instanceof Float32Array)) {
        throw new Error('the model did not answer a float32 output');
      }
      return decodeYolo(
        output.data,
        output.dims,
        box,
        names,
        options.threshold,
        options.iouThreshold,
      );
    },
    close: () => session.release(),
  };
}
