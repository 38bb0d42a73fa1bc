import { api, segment } from '../../../../lib/api-client.ts';
import type { FloorplanConfig } from '../../../../types/api.ts';

/** Spec §7: the floor-plan configuration of a video's line clearance, with its calibration. */
export const getVideoFloorplanConfig = (videoId: string, signal?: AbortSignal) =>
  api.get<Partial<FloorplanConfig> | null>(`/api/floorplan-configs/${segment(videoId)}`, {
    signal,
  });
