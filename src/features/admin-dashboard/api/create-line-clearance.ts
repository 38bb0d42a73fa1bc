import { api } from '../../../lib/api-client.ts';
import type { LineClearance, LineClearanceCreate } from '../../../types/api.ts';

export const createLineClearance = (input: LineClearanceCreate) =>
  api.post<LineClearance>('/api/line-clearances', input);
