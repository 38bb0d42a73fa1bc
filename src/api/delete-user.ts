import { api, segment } from '../lib/api-client.ts';

export const deleteUser = (id: string) => api.delete<unknown>(`/api/users/${segment(id)}`);
