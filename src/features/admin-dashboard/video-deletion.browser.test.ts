import { describe, expect, it } from 'vitest';
import { deletionSummary } from './video-deletion.ts';

describe('video deletion summary (spec §8)', () => {
  it("reads 'Video deleted successfully.' then 'Deleted:' and every removed item", () => {
    const text = deletionSummary({
      deleted: {
        video: 1,
        predictions: 15,
        reports: 1,
        floorplanConfigs: 0,
        floorplans: 0,
        minio: { video: true, keyframesText: true, keyframesImages: 1, results: false },
      },
    });
    expect(text).toBe(
      'Video deleted successfully.\nDeleted: 1 video record, 15 predictions, 1 report, ' +
        '0 floorplan configs, 0 floorplans, video file removed, keyframes text removed, ' +
        '1 keyframe image, results not found.',
    );
  });
});
