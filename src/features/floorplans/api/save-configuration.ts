import { api } from '../../../lib/api-client.ts';
import type { FloorplanConfig, FloorplanConfigSave } from '../../../types/api.ts';

/** Spec §7: saves (replaces) the configuration of a line clearance. */
export const saveConfiguration = (body: FloorplanConfigSave) =>
  api.post<FloorplanConfig>('/api/floorplan-configs', body);
