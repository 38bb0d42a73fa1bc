import { describe, expect, it } from 'vitest';
import { deletionSummary } from './video-deletion.ts';

const deletion = (reports: number) => ({
  deleted: {
    video: 1,
    predictions: 0,
    reports,
    floorplanConfigs: 0,
    floorplans: 0,
    minio: { video: true, keyframesText: false, keyframesImages: 0, results: false },
  },
});

describe('video deletion summary (spec §8)', () => {
  it("reads 'Video deleted successfully.' then 'Deleted:' and every removed item, then the unlinked reports", () => {
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
      'Video deleted successfully.\nDeleted: 1 video record, 15 predictions, ' +
        '0 floorplan configs, 0 floorplans, video file removed, keyframes text removed, ' +
        '1 keyframe image, results not found.\n1 report unlinked (the inspection is kept).',
    );
  });

  it('never lists an inspection (a GMP record, kept and only unlinked) among the deleted items', () => {
    const [, deletedLine, reportsLine] = deletionSummary(deletion(2)).split('\n');
    expect(deletedLine).not.toMatch(/report/);
    expect(reportsLine).toBe('2 reports unlinked (the inspections are kept).');
    expect(deletionSummary(deletion(0)).split('\n')[2]).toBe(
      '0 reports unlinked (the inspections are kept).',
    );
  });
});
