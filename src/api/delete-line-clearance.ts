import { api, segment } from '../lib/api-client.ts';

export const deleteLineClearance = (id: string) =>
  api.delete<unknown>(`/api/line-clearances/${segment(id)}`);
