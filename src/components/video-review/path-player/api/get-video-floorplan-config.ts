import { api, segment } from '../../../../lib/api-client.ts';
import type { FloorplanConfig } from '../../../../types/api.ts';

/**
 * Spec §7: the floor-plan configuration of a video's line clearance, with its calibration; with
 * `recorded`, the tags and hot zones its inspection was recorded against (the report's checklist).
 */
export const getVideoFloorplanConfig = (videoId: string, signal?: AbortSignal, recorded = false) =>
  api.get<Partial<FloorplanConfig> | null>(
    `/api/floorplan-configs/${segment(videoId)}${recorded ? '?tags=recorded' : ''}`,
    { signal },
  );
