import { api, segment } from '../../../lib/api-client.ts';
import type { FloorplanConfig } from '../../../types/api.ts';

/** Spec §7: the saved configuration of a line clearance (404 when it has none yet). */
export const getLineConfiguration = (lineClearanceId: string) =>
  api.get<FloorplanConfig>(`/api/floorplan-configs/line-clearance/${segment(lineClearanceId)}`);
