import { api, segment } from '../../../lib/api-client.ts';
import type { MyLineDetail } from '../../../types/api.ts';

/** The line to inspect and its checklist (403 when the caller is not assigned to it). */
export const getMyLine = (lineId: string) =>
  api.get<MyLineDetail>(`/api/my/lines/${segment(lineId)}`);
