// The detectors: YOLO decoding and NMS against hand-computed boxes (with a tiny ONNX model the test
// writes itself), and the HTTP contract against a local stub, up to predictions stored by a job.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestImage, makeTestVideo } from '../../../tests/support/test-video.ts';
import { tinyYoloModel } from '../../../tests/support/tiny-onnx.ts';
import { auditLog, predictions } from '../../db/schema.ts';
import { createLine, createRecordedInspection, jobsOf } from '../../test/analysis-fixtures.ts';
import { build } from '../../test/build.ts';
import { createUser } from '../../test/fixtures.ts';
import { locateFfmpeg } from '../ffmpeg.ts';
import type { Detection, KeyframeImage } from './detector.ts';
import { createHttpDetector } from './http-detector.ts';
import { createOnnxDetector, decodeYolo, letterbox } from './onnx-detector.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-detector-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const ffmpeg = () => locateFfmpeg(process.env.FFMPEG_PATH ?? null);

// Input 64×64; anchors (cx, cy, w, h in input pixels; scores for 'tool', 'carton'):
//   0: (32, 32, 20, 10) tool 0.9
//   1: (33, 32, 20, 10) tool 0.8    — overlaps 0 (IoU 0.905): suppressed
//   2: (10, 50,  8,  8) carton 0.7
//   3: (50, 10,  6,  6) 0.2 / 0.1   — under the 0.25 threshold
//   4: (33, 32, 20, 10) carton 0.6  — overlaps 0 but another class: kept
const output = [
  [32, 33, 10, 50, 33],
  [32, 32, 50, 10, 32],
  [20, 20, 8, 6, 20],
  [10, 10, 8, 6, 10],
  [0.9, 0.8, 0.1, 0.2, 0.1],
  [0.1, 0.05, 0.7, 0.1, 0.6],
];
// A 128×64 keyframe letterboxed into 64×64: scale 0.5, no horizontal padding, 16 px above.
// Box 0: x 22..42, y 27..37 → (x − 0) / 0.5 = 44..84 of 128, (y − 16) / 0.5 = 22..42 of 64.
// Box 2: x 6..14, y 46..54 → 12..28 of 128, 60..76 of 64, clamped to 64.
// Box 4: x 23..43 → 46..86.
const expected: Detection[] = [
  { label: 'tool', conf: 0.9, box: [44 / 128, 22 / 64, 84 / 128, 42 / 64] },
  { label: 'carton', conf: 0.7, box: [12 / 128, 60 / 64, 28 / 128, 1] },
  { label: 'carton', conf: 0.6, box: [46 / 128, 22 / 64, 86 / 128, 42 / 64] },
];

function close(actual: Detection[], wanted: Detection[]) {
  expect(actual.map((d) => d.label)).toEqual(wanted.map((d) => d.label));
  actual.forEach((d, i) => {
    expect(d.conf).toBeCloseTo(wanted[i]?.conf ?? -1, 6);
    d.box.forEach((v, k) => {
      expect(v).toBeCloseTo(wanted[i]?.box[k] ?? -1, 6);
    });
  });
}

let keyframe: KeyframeImage;
beforeAll(() => {
  const file = path.join(dir, '1.000.png');
  makeTestImage(file, 128, 64);
  keyframe = { filename: '1.000.png', file, width: 128, height: 64 };
});

describe('YOLO decoding', () => {
  it('letterboxes, decodes, thresholds and suppresses as computed by hand', () => {
    const box = letterbox(128, 64, 64);
    expect(box).toEqual({ inputSize: 64, scale: 0.5, padX: 0, padY: 16, width: 128, height: 64 });
    const flat = new Float32Array(output.flat());
    close(decodeYolo(flat, [1, 6, 5], box, ['tool', 'carton'], 0.25, 0.45), expected);
    // A higher threshold keeps only the best box; an IoU threshold above 0.905 keeps anchor 1.
    close(decodeYolo(flat, [1, 6, 5], box, ['tool', 'carton'], 0.75, 0.45), [
      expected[0] as Detection,
    ]);
    expect(decodeYolo(flat, [1, 6, 5], box, ['tool', 'carton'], 0.25, 0.95)).toHaveLength(4);
  });

  it('names a wrong output shape', () => {
    expect(() =>
      decodeYolo(new Float32Array(8), [1, 8], letterbox(10, 10, 64), [], 0.5, 0.5),
    ).toThrow(/output has shape \[1, 8\]/);
  });
});

describe('DETECTOR=onnx', () => {
  it('runs a model with onnxruntime-node, names from its metadata, the version with its hash', async () => {
    const model = path.join(dir, 'tiny.onnx');
    fs.writeFileSync(
      model,
      tinyYoloModel({ inputSize: 64, output, names: ['tool', 'carton'], version: '8.1.0' }),
    );
    const detector = await createOnnxDetector(
      { model, labels: null, threshold: 0.25, iouThreshold: 0.45 },
      ffmpeg,
    );
    expect(detector.info).toEqual({
      name: 'onnx tiny.onnx',
      version: expect.stringMatching(/^8\.1\.0 sha256:[0-9a-f]{12}$/),
      threshold: 0.25,
    });
    close(await detector.detect(keyframe, new AbortController().signal), expected);
    await detector.close();
  });

  it('takes class names from a labels file, and names a missing model', async () => {
    const model = path.join(dir, 'unnamed.onnx');
    fs.writeFileSync(model, tinyYoloModel({ inputSize: 64, output, names: [] }));
    const labels = path.join(dir, 'labels.txt');
    fs.writeFileSync(labels, 'wrench\nbox\n');
    const detector = await createOnnxDetector(
      { model, labels, threshold: 0.25, iouThreshold: 0.45 },
      ffmpeg,
    );
    const found = await detector.detect(keyframe, new AbortController().signal);
    expect(found.map((d) => d.label)).toEqual(['wrench', 'box', 'box']);
    await detector.close();
    await expect(
      createOnnxDetector(
        { model: path.join(dir, 'none.onnx'), labels: null, threshold: 0.5, iouThreshold: 0.5 },
        ffmpeg,
      ),
    ).rejects.toThrow(/DETECTOR_MODEL .*none\.onnx cannot be read \(ENOENT\)/);
  });
});

describe('DETECTOR=http', () => {
  let server: http.Server;
  let url: string;
  const seen: {
    name: string | undefined;
    auth: string | undefined;
    type: string | undefined;
    bytes: number;
  }[] = [];
  let answers: (() => { status: number; body: string; delayMs?: number })[] = [];
  const good = JSON.stringify({
    detections: [
      { label: 'tool', confidence: 0.9, box: [0.1, 0.2, 0.3, 0.4] },
      { label: 'debris', confidence: 0.2, box: [0.5, 0.5, 0.6, 0.6] },
    ],
  });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          name: req.headers['x-keyframe-name'] as string | undefined,
          auth: req.headers.authorization,
          type: req.headers['content-type'],
          bytes: Buffer.concat(chunks).length,
        });
        const answer = answers.shift()?.() ?? { status: 200, body: good };
        setTimeout(
          () =>
            res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body),
          answer.delayMs ?? 0,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/detect`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const detector = (extra: object = {}) =>
    createHttpDetector({
      url,
      token: 'secret',
      threshold: 0.5,
      timeoutMs: 500,
      retries: 2,
      version: 'stub 1',
      ...extra,
    });
  const signal = new AbortController().signal;

  it('posts the PNG with its name and token, keeps answers above the threshold', async () => {
    seen.length = 0;
    const found = await detector().detect(keyframe, signal);
    expect(found).toEqual([{ label: 'tool', conf: 0.9, box: [0.1, 0.2, 0.3, 0.4] }]);
    expect(seen).toEqual([
      {
        name: '1.000.png',
        auth: 'Bearer secret',
        type: 'image/png',
        bytes: fs.statSync(keyframe.file).size,
      },
    ]);
  });

  it('retries 5xx answers and timeouts, then gives up with the reason', async () => {
    seen.length = 0;
    answers = [
      () => ({ status: 503, body: '{}' }),
      () => ({ status: 200, body: good, delayMs: 800 }),
    ];
    expect(await detector().detect(keyframe, signal)).toHaveLength(1);
    expect(seen).toHaveLength(3);
    answers = [0, 1, 2].map(() => () => ({ status: 502, body: '' }));
    await expect(detector().detect(keyframe, signal)).rejects.toThrow(/on 1\.000\.png: HTTP 502/);
  });

  it('fails at once on an answer that breaks the contract', async () => {
    answers = [
      () => ({
        status: 200,
        body: '{"detections":[{"label":"x","confidence":2,"box":[0,0,1,1]}]}',
      }),
    ];
    await expect(detector().detect(keyframe, signal)).rejects.toThrow(
      /detections\[0\]\.confidence is not in 0\.\.1/,
    );
    answers = [() => ({ status: 400, body: 'bad image' })];
    await expect(detector().detect(keyframe, signal)).rejects.toThrow(/HTTP 400 bad image/);
  });

  it('makes a job store predictions with the detector that made them, after a retry', async () => {
    // The service is down for the first keyframe's three tries: the attempt fails and the job
    // is retried (at once here), then completes.
    answers = [0, 1, 2].map(() => () => ({ status: 503, body: '' }));
    const t = await build({
      DETECTOR: 'http',
      DETECTOR_URL: url,
      DETECTOR_THRESHOLD: '0.5',
      DETECTOR_VERSION: 'stub 1',
      ANALYSIS_RETRY_SECONDS: '0',
      ANALYSIS_POLL_MS: '100',
    });
    try {
      const operator = await createUser(t, 'operator', ['operator']);
      const lineId = await createLine(t, null, operator.id);
      const { videoId } = await createRecordedInspection(t, {
        lineId,
        operatorId: operator.id,
        file: makeTestVideo(3, { dir }),
      });
      await t.services.ctx.analysis.start(t.services.ctx.dbKind);
      await t.services.ctx.analysis.enqueue(videoId, null);
      const [job] = await jobsOf(t, videoId);
      const done = await t.services.ctx.analysis.settled(job?.id ?? '');
      expect(done.state, done.error ?? '').toBe('completed');
      expect(done.attempts).toBe(2);
      expect(done.summary?.predictions).toBe(3);
      const trail = await t.services.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, videoId))
        .orderBy(auditLog.id);
      expect(trail.map((e) => e.action)).toEqual([
        'analysis.enqueue',
        'analysis.start',
        'analysis.retry',
        'analysis.start',
        'analysis.complete',
      ]);
      expect(trail[2]?.newValue).toMatchObject({ reason: expect.stringMatching(/HTTP 503$/) });
      const rows = await t.services.ctx.db
        .select()
        .from(predictions)
        .where(eq(predictions.videoId, videoId));
      expect(rows.map((r) => r.filename).sort()).toEqual(['0.000.png', '1.000.png', '2.000.png']);
      for (const row of rows) {
        expect(row).toMatchObject({
          classLabels: ['tool'],
          confs: [0.9],
          detector: { name: `http ${url}`, version: 'stub 1', threshold: 0.5 },
        });
      }
    } finally {
      await t.close();
    }
  });
});
