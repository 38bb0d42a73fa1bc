import { describe, expect, it } from 'vitest';
import type { Video } from '../../types/api.ts';
import { toDetections } from './detections.ts';
import {
  adjacentImage,
  currentImageIndex,
  keyframeImageUrl,
  keyframeSubfolder,
  nearestImage,
  toKeyframeImages,
} from './keyframe-images.ts';

const images = toKeyframeImages(['2.665.png', '0.000.png', '1.335.png', 'notes.png', '4.000.png']);

describe('keyframe images from the keyframes file', () => {
  it('orders the named images by time and drops names without a time', () => {
    expect(images.map((image) => image.name)).toEqual([
      '0.000.png',
      '1.335.png',
      '2.665.png',
      '4.000.png',
    ]);
  });

  it('picks the nearest image for a clicked time, the earlier one on a tie', () => {
    expect(nearestImage(images, 1.9)?.name).toBe('1.335.png');
    expect(nearestImage(images, 2.1)?.name).toBe('2.665.png');
    expect(nearestImage(images, 2)?.name).toBe('1.335.png');
    expect(nearestImage(images, -3)?.name).toBe('0.000.png');
    expect(nearestImage(images, 99)?.name).toBe('4.000.png');
    expect(nearestImage([], 1)).toBeNull();
  });

  it('steps to the previous or next image, a frame away from the time', () => {
    expect(adjacentImage(images, 1.335, 1)?.name).toBe('2.665.png');
    expect(adjacentImage(images, 1.335, -1)?.name).toBe('0.000.png');
    expect(adjacentImage(images, 1.3355, -1)?.name).toBe('0.000.png');
    expect(adjacentImage(images, 2, -1)?.name).toBe('1.335.png');
    expect(adjacentImage(images, 4, 1)).toBeNull();
    expect(adjacentImage(images, 0, -1)).toBeNull();
  });

  it('tells which image is shown at a time', () => {
    expect(currentImageIndex(images, 0)).toBe(0);
    expect(currentImageIndex(images, 1.333)).toBe(0);
    // Within the 0.001 s timestamp tolerance the next image counts as shown.
    expect(currentImageIndex(images, 1.3345)).toBe(1);
    expect(currentImageIndex(images, 3)).toBe(2);
    expect(currentImageIndex(images, -1)).toBe(-1);
  });
});

describe('keyframe image location (spec §7)', () => {
  const video = { filename: 'lc1-20261103-081500.mp4' } as Video;

  it("takes the predictions' subfolder, else the video's file name without extension", () => {
    const detections = toDetections([
      {
        _id: 'p1',
        filename: '8.003.png',
        subfolder: 'analysis-7',
        class_labels: ['carton'],
        confs: [0.7],
        boxes_normalized: [[0, 0, 1, 1]],
      },
    ]);
    expect(keyframeSubfolder(video, detections)).toBe('analysis-7');
    expect(keyframeSubfolder(video, [])).toBe('lc1-20261103-081500');
  });

  it('builds GET /api/keyframes/{subfolder}/{timestamp}.png with escaped segments', () => {
    expect(keyframeImageUrl('lc1-20261103-081500', '8.003.png')).toBe(
      '/api/keyframes/lc1-20261103-081500/8.003.png',
    );
    expect(keyframeImageUrl('a b', '1.png')).toBe('/api/keyframes/a%20b/1.png');
  });
});
