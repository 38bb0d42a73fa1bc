import { api } from '../../../lib/api-client.ts';
import type { LineClearance, LineClearanceCreate } from '../../../types/api.ts';

/**
 * Spec §7: the LC manager's create call (200 or 201 both mean created); the manager creating the
 * area manages it.
 */
export const createArea = (input: LineClearanceCreate & { managerId: string }) =>
  api.post<LineClearance>('/api/areas', input);
