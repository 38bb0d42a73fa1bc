// Chooses the detector from the configuration (DETECTOR=none|onnx|http).
import type { DetectorConfig } from '../../config.ts';
import { type Detector, noDetector } from './detector.ts';

export async function createDetector(config: DetectorConfig): Promise<Detector> {
  switch (config.kind) {
    case 'none':
      return noDetector;
    default:
      throw new Error(`DETECTOR=${config.kind} is not available in this build`);
  }
}
