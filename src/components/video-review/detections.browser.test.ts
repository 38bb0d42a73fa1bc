import { describe, expect, it } from 'vitest';
import type { Prediction } from '../../types/api.ts';
import {
  aboveThreshold,
  adjacentDetection,
  boxConfidence,
  detectionAt,
  detectionSummary,
  listConfidence,
  toDetections,
} from './detections.ts';

const prediction = (filename: string, labels: string[], confs: number[]): Prediction => ({
  _id: `p-${filename}`,
  filename,
  subfolder: 'lc1-20261103-081500',
  class_labels: labels,
  confs,
  boxes_normalized: labels.map((_, index) => [0.1 * index, 0.2, 0.1 * index + 0.1, 0.4]),
});

describe('toDetections (spec §7: sorted by numeric file name)', () => {
  it('sorts 9.5 before 12.003 before 100 (not as text), keeping the stamp as written', () => {
    const detections = toDetections([
      prediction('100.png', ['tool'], [0.9]),
      prediction('12.003.png', ['carton'], [0.718]),
      prediction('9.500.png', ['debris'], [0.6]),
    ]);
    expect(detections.map((detection) => detection.stamp)).toEqual(['9.500', '12.003', '100']);
    expect(detections.map((detection) => detection.time)).toEqual([9.5, 12.003, 100]);
  });

  it('pairs labels with their confidences and boxes, and drops unnamed frames', () => {
    const [detection, ...rest] = toDetections([
      prediction('8.003.png', ['carton', 'tool'], [0.718]),
      prediction('frame.png', ['tool'], [0.5]),
    ]);
    expect(rest).toEqual([]);
    expect(detection?.objects).toEqual([
      { label: 'carton', confidence: 0.718, box: [0, 0.2, 0.1, 0.4] },
      { label: 'tool', confidence: null, box: [0.1, 0.2, 0.2, 0.4] },
    ]);
  });
});

describe('confidence formatting (spec §9)', () => {
  it('shows the list confidence with 0 decimals and box confidences with 1', () => {
    expect(listConfidence(0.718)).toBe('72%');
    expect(listConfidence(0.5)).toBe('50%');
    expect(listConfidence(1)).toBe('100%');
    expect(boxConfidence(0.718)).toBe('71.8%');
    expect(boxConfidence(0.9649)).toBe('96.5%');
    expect(boxConfidence(null)).toBe('');
  });

  it('summarises a detection by its first class label and that confidence', () => {
    const [detection] = toDetections([prediction('17.339.png', ['debris', 'tool'], [0.68, 0.9])]);
    expect(detection && detectionSummary(detection)).toEqual({
      label: 'debris',
      confidence: '68%',
    });
  });
});

describe('aboveThreshold (confidence threshold slider)', () => {
  const detections = toDetections([
    prediction('1.000.png', ['carton', 'tool'], [0.55, 0.91]),
    prediction('2.000.png', ['debris'], [0.6]),
    prediction('3.000.png', ['label'], []),
  ]);

  it('shows everything at 0', () => {
    expect(aboveThreshold(detections, 0)).toEqual(detections);
  });

  it('drops objects below the threshold and frames left without any', () => {
    const shown = aboveThreshold(detections, 0.6);
    expect(shown.map((detection) => detection.stamp)).toEqual(['1.000', '2.000']);
    expect(shown[0]?.objects.map((object) => object.label)).toEqual(['tool']);
    expect(shown[0] && detectionSummary(shown[0])).toEqual({ label: 'tool', confidence: '91%' });
    expect(aboveThreshold(detections, 0.95)).toEqual([]);
  });
});

describe('stepping and matching detections', () => {
  const detections = toDetections([
    prediction('8.003.png', ['carton'], [0.7]),
    prediction('9.335.png', ['carton'], [0.8]),
    prediction('17.339.png', ['debris'], [0.6]),
  ]);

  it('finds the next and previous detection a frame away from the time', () => {
    expect(adjacentDetection(detections, 0, 1)?.stamp).toBe('8.003');
    expect(adjacentDetection(detections, 8.003, 1)?.stamp).toBe('9.335');
    expect(adjacentDetection(detections, 9.3355, 1)?.stamp).toBe('17.339');
    expect(adjacentDetection(detections, 17.339, 1)).toBeNull();
    expect(adjacentDetection(detections, 17.339, -1)?.stamp).toBe('9.335');
    expect(adjacentDetection(detections, 8.003, -1)).toBeNull();
  });

  it("matches a frame's detection within 0.001 s", () => {
    expect(detectionAt(detections, 9.3359)?.stamp).toBe('9.335');
    expect(detectionAt(detections, 9.337)).toBeNull();
  });
});
