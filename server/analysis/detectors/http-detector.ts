// DETECTOR=http: each keyframe image is POSTed to a detection service (docs/analysis.md, "The
// HTTP contract"). Timeouts and retries with backoff for network errors and 5xx answers; any other
// answer that breaks the contract fails the job with the reason.
import fs from 'node:fs/promises';
import type { DetectorConfig } from '../../config.ts';
import type { Detection, Detector, KeyframeImage } from './detector.ts';

export type HttpDetectorOptions = Omit<Extract<DetectorConfig, { kind: 'http' }>, 'kind'>;

/** The answer's shape, checked by hand (a service is outside our control). */
function parseAnswer(body: unknown, where: string): Detection[] {
  const list = (body as { detections?: unknown })?.detections;
  if (!Array.isArray(list)) throw new Error(`${where}: the answer has no "detections" list`);
  return list.map((item, i) => {
    const { label, confidence, box } = (item ?? {}) as Record<string, unknown>;
    const inUnit = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;
    if (typeof label !== 'string' || !label)
      throw new Error(`${where}: detections[${i}].label is not a text`);
    if (!inUnit(confidence))
      throw new Error(`${where}: detections[${i}].confidence is not in 0..1`);
    if (!Array.isArray(box) || box.length !== 4 || !box.every(inUnit)) {
      throw new Error(`${where}: detections[${i}].box is not [x1, y1, x2, y2] in 0..1`);
    }
    return { label, conf: confidence as number, box: box as Detection['box'] };
  });
}

class RetryableError extends Error {}

export function createHttpDetector(options: HttpDetectorOptions): Detector {
  return {
    info: { name: `http ${options.url}`, version: options.version, threshold: options.threshold },
    detects: true,
    async detect(image: KeyframeImage, signal: AbortSignal): Promise<Detection[]> {
      const bytes = await fs.readFile(image.file);
      const where = `detection service ${options.url} on ${image.filename}`;
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await fetch(options.url, {
            method: 'POST',
            body: bytes,
            headers: {
              'content-type': 'image/png',
              'x-keyframe-name': image.filename,
              ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            },
            signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
          });
          if (response.status >= 500) throw new RetryableError(`${where}: HTTP ${response.status}`);
          if (!response.ok)
            throw new Error(`${where}: HTTP ${response.status} ${await response.text()}`);
          let body: unknown;
          try {
            body = await response.json();
          } catch {
            throw new Error(`${where}: the answer is not JSON`);
          }
          return parseAnswer(body, where).filter((d) => d.conf >= options.threshold);
        } catch (error) {
          if (signal.aborted) throw error;
          const retryable =
            error instanceof RetryableError ||
            (error instanceof Error &&
              (error.name === 'TimeoutError' || error.name === 'TypeError'));
          if (!retryable || attempt >= options.retries) {
            if (error instanceof Error && error.name === 'TimeoutError') {
              throw new Error(`${where}: no answer within ${options.timeoutMs} ms`);
            }
            throw error;
          }
          await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
        }
      }
    },
    close: async () => {},
  };
}
