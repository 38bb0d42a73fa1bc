import { api, segment } from '../../../lib/api-client.ts';

export const deleteDevice = (id: string) => api.delete<unknown>(`/api/devices/${segment(id)}`);
