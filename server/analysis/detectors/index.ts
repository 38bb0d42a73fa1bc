// Chooses the detector from the configuration (DETECTOR=none|onnx|http).
import type { DetectorConfig } from '../../config.ts';
import { type Detector, noDetector } from './detector.ts';
import { createHttpDetector } from './http-detector.ts';
import { createOnnxDetector } from './onnx-detector.ts';

/** `ffmpeg` finds the binary when first needed (the ONNX detector letterboxes with it). */
export async function createDetector(
  config: DetectorConfig,
  ffmpeg: () => string,
): Promise<Detector> {
  switch (config.kind) {
    case 'none':
      return noDetector;
    case 'http':
      return createHttpDetector(config);
    case 'onnx':
      return createOnnxDetector(config, ffmpeg);
  }
}
