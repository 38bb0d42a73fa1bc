import { type LocalRecording, newRecording } from '../../src/lib/capture/recording-db.ts';

/** A recording just started on the device by `userId`, on a line with an empty checklist. */
export const startedRecording = (id: string, userId = 'u1'): LocalRecording =>
  newRecording({
    id,
    userId,
    lineId: 'a'.repeat(24),
    lineName: 'Line A',
    productLeaving: 'P1',
    batchLeaving: 'B1',
    productComing: 'P2',
    batchComing: 'B2',
    deviceId: null,
    checklist: { floorplanConfigId: null, tags: [], hotZones: [] },
  });
