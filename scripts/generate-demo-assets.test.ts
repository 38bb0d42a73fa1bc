// Invariants of the committed demo dataset (server/demo): it is exactly what the generator
// builds, its references hold, its keyframes and predictions follow the spec's formats, its
// path lands on the floor plan through the saved calibration, and its videos are playable MP4s.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsFor } from '../server/analysis/anchors.ts';
import type { DemoCapture, DemoDataset, DemoVideo } from '../server/demo/dataset-types.ts';
import { mapAndClampReference } from '../tests/reference/mapping.ts';
import { selectTransformReference } from '../tests/reference/select-transform.ts';
import { reconstructPath } from '../workers/path-reconstruction.ts';
import { SCAN_DISTANCE_PX } from './lib/demo-capture.ts';
import { buildDemo } from './lib/demo-dataset.ts';
import { CLASS_BODY_COLOR, DETECTION_CLASSES } from './lib/demo-scene.ts';
import { crc32, decodePng, encodePng } from './lib/png.ts';
import { Prng } from './lib/prng.ts';
import { Raster } from './lib/raster.ts';
import { applyTransform, fitAffine, fitHomography, type Point } from './lib/transform.ts';

const demoDir = join(import.meta.dirname, '..', 'server', 'demo');
const filesDir = join(demoDir, 'files');
const committed = JSON.parse(readFileSync(join(demoDir, 'dataset.json'), 'utf8')) as DemoDataset;
const built = buildDemo();

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(join(dir, entry.name))
      : [relative(filesDir, join(dir, entry.name))],
  );
}

function byKey<T extends { key: string }>(rows: T[]): Map<string, T> {
  const map = new Map(rows.map((row) => [row.key, row]));
  expect(map.size, 'keys are unique').toBe(rows.length);
  return map;
}

interface KeyframeLine {
  index: number;
  x: number;
  y: number;
  timestamp: string;
  image: string | undefined;
}

/** The videos that arrive with analysis results (the pending one's analysis is queued). */
const completedVideos = committed.videos.filter((v) => v.status === 'completed');

function readKeyframes(video: DemoVideo): KeyframeLine[] {
  if (!video.keyframesFile) throw new Error(`${video.key} has no keyframes file`);
  const text = readFileSync(join(filesDir, video.keyframesFile), 'utf8');
  const pattern = /^(\d+) (-?\d+\.\d{3}) (-?\d+\.\d{3}) (\d+\.\d{3})(?: (\d+\.\d{3}\.png))?$/;
  return text
    .trimEnd()
    .split('\n')
    .map((line, i) => {
      const match = pattern.exec(line);
      if (!match) throw new Error(`${video.keyframesFile} line ${i + 1} is malformed: '${line}'`);
      return {
        index: Number(match[1]),
        x: Number(match[2]),
        y: Number(match[3]),
        timestamp: match[4]!,
        image: match[5],
      };
    });
}

describe('PNG codec', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips random pixels through every filter choice', () => {
    const prng = new Prng(7);
    const image = new Raster(37, 23, [0, 0, 0]);
    for (let i = 0; i < image.data.length; i++) {
      // Mix noise with flat runs so the encoder picks different filters on different rows.
      image.data[i] = i % 200 < 100 ? Math.floor(prng.next() * 256) : 90;
    }
    const decoded = decodePng(encodePng(image));
    expect(decoded.width).toBe(37);
    expect(decoded.height).toBe(23);
    expect(Buffer.from(decoded.data).equals(Buffer.from(image.data))).toBe(true);
  });

  it('rejects a wrong signature, a corrupted chunk and a wrong buffer size', () => {
    const png = encodePng(new Raster(4, 4, [10, 20, 30]));
    const badSignature = png.slice();
    badSignature[1] = 0;
    expect(() => decodePng(badSignature)).toThrow('PNG: bad signature');
    const corrupt = png.slice();
    corrupt[20] = corrupt[20]! ^ 0xff;
    expect(() => decodePng(corrupt)).toThrow('PNG: CRC mismatch in chunk IHDR');
    expect(() => encodePng({ width: 4, height: 4, data: new Uint8Array(5) })).toThrow(
      'PNG: expected 48 RGB bytes, got 5',
    );
  });
});

describe('committed demo output', () => {
  it('is exactly what the generator builds (run `npm run demo:assets` after changing it)', () => {
    expect(committed).toEqual(built.dataset);
    for (const [path, text] of built.textFiles) {
      expect(readFileSync(join(filesDir, path), 'utf8') === text, path).toBe(true);
    }
    for (const [path, image] of built.images) {
      const decoded = decodePng(readFileSync(join(filesDir, path)));
      expect([decoded.width, decoded.height], path).toEqual([image.width, image.height]);
      expect(Buffer.from(decoded.data).equals(Buffer.from(image.data)), path).toBe(true);
    }
    const expected = [
      ...built.textFiles.keys(),
      ...built.images.keys(),
      ...built.dataset.videos.map((v) => v.file),
    ].sort();
    expect(listFiles(filesDir).sort()).toEqual(expected);
  });

  it('stays within the 10 MB budget', () => {
    const total = listFiles(filesDir).reduce((n, f) => n + statSync(join(filesDir, f)).size, 0);
    expect(total + statSync(join(demoDir, 'dataset.json')).size).toBeLessThanOrEqual(
      10 * 1024 * 1024,
    );
  });
});

describe('dataset references', () => {
  const users = byKey(committed.users);
  const lines = byKey(committed.lineClearances);
  const devices = byKey(committed.devices);
  const videos = byKey(committed.videos);

  it('has the demo accounts with exactly their roles', () => {
    expect(committed.users.map((u) => [u.email, u.roles])).toEqual([
      ['admin@example.com', ['admin']],
      ['factory@example.com', ['factory_manager']],
      ['lcmanager@example.com', ['lc_manager']],
      ['lcmanager2@example.com', ['lc_manager']],
      ['audit@example.com', ['audit']],
      ['operator@example.com', ['operator']],
      ['operator2@example.com', ['operator']],
    ]);
    expect(devices.size).toBe(3);
  });

  it('links lines to LC managers and operators, and each floor plan and config to its line', () => {
    for (const line of committed.lineClearances) {
      expect(users.get(line.managerKey)?.roles).toEqual(['lc_manager']);
      for (const key of line.operatorKeys) expect(users.get(key)?.roles).toEqual(['operator']);
    }
    const floorplans = byKey(committed.floorplans);
    expect(new Set(committed.floorplans.map((f) => f.lineKey)).size).toBe(
      committed.floorplans.length,
    );
    expect(committed.floorplans.length).toBeGreaterThanOrEqual(2);
    for (const config of committed.floorplanConfigs) {
      const floorplan = floorplans.get(config.floorplanKey);
      expect(floorplan?.lineKey).toBe(config.lineKey);
      expect(config.name).toBe(`${lines.get(config.lineKey)?.name} Floorplan Configuration`);
      expect(config.configuration.floorplanImage).toBe(floorplan?.file);
    }
  });

  it('links videos to a line, one of its operators and a device', () => {
    expect(committed.videos.length).toBeGreaterThanOrEqual(4);
    for (const video of committed.videos) {
      const line = lines.get(video.lineKey);
      expect(line?.operatorKeys).toContain(video.userKey);
      expect(devices.has(video.deviceKey)).toBe(true);
      expect(video.filename).toBe(video.file.split('/').pop());
    }
    expect(committed.videos.filter((v) => v.status === 'completed').length).toBeGreaterThan(
      committed.videos.length / 2,
    );
    expect(new Set(committed.videos.map((v) => v.status)).size).toBeGreaterThan(1);
  });

  it('has pending, approved and rejected inspections reviewed by the line manager', () => {
    const statuses = committed.inspections.map((i) => i.status);
    expect(statuses.filter((s) => s === 'pending').length).toBeGreaterThanOrEqual(2);
    for (const inspection of committed.inspections) {
      const line = lines.get(inspection.lineKey);
      expect(line?.operatorKeys).toContain(inspection.operatorKey);
      if (inspection.videoKey !== null) {
        const video = videos.get(inspection.videoKey);
        expect([video?.lineKey, video?.userKey]).toEqual([
          inspection.lineKey,
          inspection.operatorKey,
        ]);
      }
      // A reviewed one is signed by its line's manager with a reason, not the spec's bare note.
      const review = {
        pending: [null, null],
        approved: [line?.managerKey, expect.not.stringMatching(/^Approved by LC Manager$/)],
        rejected: [line?.managerKey, expect.not.stringMatching(/^Rejected by LC Manager$/)],
      }[inspection.status];
      expect([inspection.reviewerKey, inspection.reviewNotes]).toEqual(review);
      if (inspection.status !== 'pending') expect(inspection.reviewNotes).toMatch(/\S{3}/);
      expect(Number.isNaN(Date.parse(inspection.startTime))).toBe(false);
    }
    expect(statuses).toContain('approved');
    expect(statuses).toContain('rejected');
  });

  it('each inspection has its video (or the submit’s one not uploaded yet) and ends with it', () => {
    for (const inspection of committed.inspections) {
      const video = inspection.videoKey ? videos.get(inspection.videoKey) : undefined;
      const declared = inspection.pendingUpload;
      // A submit creates the video with the inspection: exactly one of the two.
      expect([video !== undefined, declared !== null], inspection.key).toContain(true);
      expect(video !== undefined && declared !== null, inspection.key).toBe(false);
      const end = Date.parse(inspection.endTime);
      if (video) {
        expect(end, inspection.key).toBe(Date.parse(video.timestamp) + video.duration * 1000);
        expect(Date.parse(video.timestamp), inspection.key).toBeGreaterThanOrEqual(
          Date.parse(inspection.startTime),
        );
      }
      if (declared) {
        // The submitted recording starts with the inspection; the line was open for it.
        expect(end, inspection.key).toBe(
          Date.parse(inspection.startTime) + declared.duration * 1000,
        );
        expect(declared.duration, inspection.key).toBeGreaterThan(0);
        if (declared.deviceKey !== null) expect(devices.has(declared.deviceKey)).toBe(true);
        expect(lines.get(inspection.lineKey)?.status, inspection.key).toBe('active');
        expect(inspection.captureFile, inspection.key).toBeNull();
      }
    }
    expect(committed.inspections.filter((i) => i.pendingUpload !== null)).toHaveLength(1);
  });

  it('names products and batches, each coming batch the next changeover’s leaving one', () => {
    for (const line of committed.lineClearances) {
      const changeovers = committed.inspections
        .filter((i) => i.lineKey === line.key)
        .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
      changeovers.forEach((inspection, i) => {
        for (const product of [inspection.productLeaving, inspection.productComing]) {
          expect(product, inspection.key).toMatch(/^[A-Z][a-z]+ \d+ mg(\/5 mL)? \S/);
        }
        for (const batch of [inspection.batchLeaving, inspection.batchComing]) {
          expect(batch, inspection.key).toMatch(/^[A-Z]{2}\d{4}-\d{3}$/);
        }
        expect(inspection.productComing, inspection.key).not.toBe(inspection.productLeaving);
        const next = changeovers[i + 1];
        if (next) {
          expect([next.productLeaving, next.batchLeaving], next.key).toEqual([
            inspection.productComing,
            inspection.batchComing,
          ]);
        }
      });
    }
  });
});

describe('keyframes, images and predictions', () => {
  it('completed videos name who made their results; a pending one has none yet', () => {
    expect(completedVideos.length).toBeGreaterThanOrEqual(4);
    for (const video of committed.videos) {
      const analysed = video.status === 'completed';
      expect(video.analysisVersion !== null, video.key).toBe(analysed);
      expect(video.detector !== null, video.key).toBe(analysed);
      expect(video.keyframesFile !== null && video.keyframeImagesDir !== null, video.key).toBe(
        analysed,
      );
      if (!analysed) expect(video.predictions, video.key).toEqual([]);
      for (const p of video.predictions) {
        for (const conf of p.confs) expect(conf).toBeGreaterThanOrEqual(video.detector!.threshold);
      }
    }
    expect(committed.videos.filter((v) => v.status === 'pending')).toHaveLength(1);
  });

  for (const video of completedVideos) {
    it(`${video.key}: keyframes follow the format and name their images`, () => {
      const keyframes = readKeyframes(video);
      expect(keyframes.length).toBeGreaterThanOrEqual(2000);
      expect(keyframes.length).toBeLessThanOrEqual(20000);
      keyframes.forEach((k, i) => {
        expect(k.index).toBe(i);
        if (i > 0) expect(Number(k.timestamp)).toBeGreaterThan(Number(keyframes[i - 1]!.timestamp));
        if (k.image !== undefined) expect(k.image).toBe(`${k.timestamp}.png`);
      });
      expect(Number(keyframes.at(-1)!.timestamp)).toBeLessThanOrEqual(video.duration);
      const images = keyframes.filter((k) => k.image !== undefined).map((k) => k.image!);
      expect(images.length).toBeGreaterThanOrEqual(20);
      expect(readdirSync(join(filesDir, video.keyframeImagesDir!)).sort()).toEqual(images.sort());
    });

    it(`${video.key}: predictions name keyframe images and their boxes land on the objects`, () => {
      const images = new Set(readKeyframes(video).flatMap((k) => (k.image ? [k.image] : [])));
      const filenames = video.predictions.map((p) => p.filename);
      expect(filenames).toEqual([...new Set(filenames)]);
      expect(video.predictions.length).toBeGreaterThan(0);
      expect(video.predictions.length).toBeLessThan(images.size);
      for (const p of video.predictions) {
        expect(images.has(p.filename)).toBe(true);
        expect(p.subfolder).toBe(video.keyframeImagesDir);
        expect(p.confs.length).toBe(p.class_labels.length);
        expect(p.boxes_normalized.length).toBe(p.class_labels.length);
        const image = decodePng(readFileSync(join(filesDir, video.keyframeImagesDir!, p.filename)));
        p.class_labels.forEach((label, i) => {
          expect(DETECTION_CLASSES).toContain(label);
          expect(p.confs[i]).toBeGreaterThanOrEqual(0);
          expect(p.confs[i]).toBeLessThanOrEqual(1);
          const [x1, y1, x2, y2] = p.boxes_normalized[i]!;
          expect(0 <= x1 && x1 < x2 && x2 <= 1 && 0 <= y1 && y1 < y2 && y2 <= 1).toBe(true);
          const cx = Math.floor(((x1 + x2) / 2) * image.width);
          const cy = Math.floor(((y1 + y2) / 2) * image.height);
          const at = (cy * image.width + cx) * 3;
          expect([...image.data.subarray(at, at + 3)], `${p.filename} ${label}`).toEqual([
            ...CLASS_BODY_COLOR[label as keyof typeof CLASS_BODY_COLOR],
          ]);
        });
      }
    });
  }
});

describe('path alignment with the floor plan', () => {
  for (const config of committed.floorplanConfigs) {
    const c = config.configuration;
    const floorplan = committed.floorplans.find((f) => f.key === config.floorplanKey)!;
    const fitCalibration = c.forceAffine ? fitAffine : fitHomography;
    const matrix = fitCalibration(c.slamPoints, c.floorplanPoints);
    const toImage = (x: number, y: number): Point =>
      applyTransform(matrix, [x, c.yAxisFlip ? -y : y]);

    it(`${config.name}: calibration fits within 1 px and matches the image`, () => {
      c.slamPoints.forEach((p, i) => {
        const [x, y] = applyTransform(matrix, p);
        const [u, v] = c.floorplanPoints[i]!;
        expect(Math.hypot(x - u, y - v)).toBeLessThan(1);
      });
      expect([c.coordinateSystem.sourceImageWidth, c.coordinateSystem.sourceImageHeight]).toEqual([
        floorplan.width,
        floorplan.height,
      ]);
      expect(Math.max(c.displaySize.width, c.displaySize.height)).toBe(800);
      expect(c.displaySize.width / c.displaySize.height).toBeCloseTo(
        floorplan.width / floorplan.height,
        6,
      );
      const decoded = decodePng(readFileSync(join(filesDir, floorplan.file)));
      expect([decoded.width, decoded.height]).toEqual([floorplan.width, floorplan.height]);
      if (!c.forceAffine) {
        // A true perspective: the best affine through the same points misses by many pixels.
        const affine = fitAffine(c.slamPoints, c.floorplanPoints);
        const worst = Math.max(
          ...c.slamPoints.map((p, i) => {
            const [x, y] = applyTransform(affine, p);
            return Math.hypot(x - c.floorplanPoints[i]![0], y - c.floorplanPoints[i]![1]);
          }),
        );
        expect(worst).toBeGreaterThan(10);
      }
    });

    it(`${config.name}: each walk stays on the plan and passes most, not all, tags`, () => {
      const scale = floorplan.width / c.displaySize.width;
      const tags = c.tags.map((t): Point => [t.x * scale, t.y * scale]);
      const lineVideos = completedVideos.filter((v) => v.lineKey === config.lineKey);
      expect(lineVideos.length).toBeGreaterThan(0);
      const scannedCounts = lineVideos.map((video) => {
        const nearest = tags.map(() => Number.POSITIVE_INFINITY);
        for (const k of readKeyframes(video)) {
          const [x, y] = toImage(k.x, k.y);
          expect(x >= 0 && x < floorplan.width && y >= 0 && y < floorplan.height).toBe(true);
          tags.forEach(([tx, ty], i) => {
            nearest[i] = Math.min(nearest[i]!, Math.hypot(x - tx, y - ty));
          });
        }
        return nearest.filter((d) => d <= 10).length;
      });
      for (const count of scannedCounts) {
        expect(count).toBeGreaterThan(0);
        expect(count).toBeLessThan(tags.length);
      }
      expect(Math.max(...scannedCounts)).toBeGreaterThan(tags.length / 2);
    });

    if (c.yAxisFlip) {
      it(`${config.name}: the y flip matters (unflipped, the path leaves the image)`, () => {
        const video = completedVideos.find((v) => v.lineKey === config.lineKey)!;
        const outside = readKeyframes(video).filter((k) => {
          const [, y] = applyTransform(matrix, [k.x, k.y]);
          return y < 0 || y >= floorplan.height;
        });
        expect(outside.length).toBeGreaterThan(0);
      });
    }
  }

  it('picks the intended transform under the spec §5 rules, with nothing clamped', () => {
    const kinds = committed.floorplanConfigs.map((config) => {
      const c = config.configuration;
      const floorplan = committed.floorplans.find((f) => f.key === config.floorplanKey)!;
      const image = { width: floorplan.width, height: floorplan.height };
      const transform = selectTransformReference(c, image);
      for (const video of completedVideos.filter((v) => v.lineKey === config.lineKey)) {
        const keyframes = readKeyframes(video);
        const mapped = mapAndClampReference(
          transform.matrix,
          c.yAxisFlip,
          Float64Array.from(keyframes, (k) => k.x),
          Float64Array.from(keyframes, (k) => k.y),
          image,
        );
        expect(mapped.clamped, video.key).toBe(0);
      }
      return [transform.kind, transform.rejected.map((r) => r.reason)];
    });
    expect(kinds).toEqual([
      ['affine', ['forced-affine']],
      ['perspective', []],
    ]);
  });

  it('has one affine line (forceAffine) and one perspective line with 4+ points', () => {
    const configs = committed.floorplanConfigs.map((f) => f.configuration);
    expect(configs.some((c) => c.forceAffine && c.yAxisFlip)).toBe(true);
    expect(
      configs.some((c) => !c.forceAffine && !c.yAxisFlip && c.floorplanPoints.length >= 4),
    ).toBe(true);
  });
});

/** Top-level MP4 boxes: [type, offset, size]. */
function boxes(bytes: Buffer, from: number, to: number): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = bytes.readUInt32BE(at);
    if (size < 8) throw new Error(`MP4: box of size ${size} at byte ${at}`);
    out.push([bytes.toString('latin1', at + 4, at + 8), at, size]);
    at += size;
  }
  return out;
}

describe('demo videos', () => {
  for (const video of committed.videos) {
    it(`${video.key}: an H.264 MP4 with the index first (faststart) and the planned duration`, () => {
      const bytes = readFileSync(join(filesDir, video.file));
      const top = boxes(bytes, 0, bytes.length);
      const order = top.map(([type]) => type);
      expect(order[0]).toBe('ftyp');
      expect(order.indexOf('moov')).toBeGreaterThan(-1);
      expect(order.indexOf('moov')).toBeLessThan(order.indexOf('mdat'));
      const [, moovAt, moovSize] = top.find(([type]) => type === 'moov')!;
      const moov = bytes.subarray(moovAt, moovAt + moovSize);
      expect(moov.includes('avc1')).toBe(true);
      const [, mvhdAt] = boxes(bytes, moovAt + 8, moovAt + moovSize).find(([t]) => t === 'mvhd')!;
      // mvhd version 0: timescale at +20, duration at +24.
      const seconds = bytes.readUInt32BE(mvhdAt + 24) / bytes.readUInt32BE(mvhdAt + 20);
      expect(seconds).toBeCloseTo(video.duration, 1);
    });
  }
});

describe('the phone capture of the queued video', () => {
  const captured = committed.inspections.filter((i) => i.captureFile !== null);

  it('comes with the inspection whose video waits for the server’s analysis, and only that', () => {
    expect(captured.length).toBeGreaterThan(0);
    for (const inspection of committed.inspections) {
      const video = committed.videos.find((v) => v.key === inspection.videoKey);
      expect(inspection.captureFile !== null, inspection.key).toBe(video?.status === 'pending');
    }
  });

  for (const inspection of captured) {
    const capture = JSON.parse(
      readFileSync(join(filesDir, inspection.captureFile!), 'utf8'),
    ) as DemoCapture;
    const video = committed.videos.find((v) => v.key === inspection.videoKey)!;
    const walk = built.videos.find((v) => v.plan.key === video.key)!.walk;
    const config = committed.floorplanConfigs.find((c) => c.lineKey === inspection.lineKey)!;
    const c = config.configuration;
    const imagePerDisplay = c.coordinateSystem.sourceImageWidth / c.displaySize.width;

    it(`${inspection.key}: a scan of each tag the walk passes, at its closest approach`, () => {
      for (const scan of capture.scans) {
        const tag = c.tags.find((t) => t.qrCode === scan.code);
        if (!tag) throw new Error(`${scan.code} is not a tag of ${config.name}`);
        expect(scan.videoTime).toBeGreaterThanOrEqual(0);
        expect(scan.videoTime).toBeLessThanOrEqual(video.duration);
        expect(Date.parse(scan.at)).toBe(
          Date.parse(video.timestamp) + Math.round(scan.videoTime * 1000),
        );
        const [x, y] = walk.position(scan.videoTime);
        const distance = Math.hypot(x - tag.x * imagePerDisplay, y - tag.y * imagePerDisplay);
        expect(distance, scan.code).toBeLessThanOrEqual(SCAN_DISTANCE_PX);
      }
      // All tags but the far one (the QC bench, 90+ px from the route) are scanned.
      expect(new Set(capture.scans.map((s) => s.code)).size).toBe(c.tags.length - 1);
      const times = capture.scans.map((s) => s.videoTime);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it(`${inspection.key}: the analysis's path from the scans and motion follows the walk`, () => {
      const motion = capture.motion!;
      for (const column of [motion.ax, motion.ay, motion.az, motion.alpha, motion.beta]) {
        expect(column).toHaveLength(motion.t.length);
      }
      expect(motion.t.at(-1)).toBeLessThanOrEqual(video.duration);
      // What server/analysis/pipeline.ts does with them: anchors at the tags, dead reckoning.
      const checklist = {
        floorplanConfigId: null,
        tags: c.tags.map((tag, index) => ({ ...tag, index })),
        hotZones: [],
      };
      const scans = capture.scans.map((scan) => ({
        ...scan,
        tagIndex: c.tags.findIndex((tag) => tag.qrCode === scan.code),
      }));
      const anchors = anchorsFor(scans, checklist, {
        pixelsPerMeter: c.coordinateSystem.pixelsPerMeter,
        imagePerDisplay,
      });
      if (typeof anchors === 'string') throw new Error(anchors);
      const path = reconstructPath(anchors, motion, { duration: video.duration, interval: 0.1 });
      if (!path.ok) throw new Error(path.reason);
      expect([path.method, path.note]).toEqual(['motion', null]);
      // Metres of the plan image (pixels ÷ pixels per metre), the frame the anchors are in.
      const errors = Array.from(path.t, (t, i) => {
        const [x, y] = walk.position(t);
        const ppm = c.coordinateSystem.pixelsPerMeter;
        return Math.hypot(path.x[i]! - x / ppm, path.y[i]! - y / ppm);
      }).sort((a, b) => a - b);
      const mean = errors.reduce((sum, e) => sum + e, 0) / errors.length;
      expect(mean).toBeLessThan(0.4);
      expect(errors[Math.floor(errors.length * 0.95)]).toBeLessThan(1);
    });
  }
});
