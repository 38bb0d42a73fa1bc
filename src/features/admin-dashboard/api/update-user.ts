import { api, segment } from '../../../lib/api-client.ts';
import type { User, UserUpdate } from '../../../types/api.ts';

/** Spec §7: PUT sends the whole user (the server ignores `_id` and `id`). */
export const updateUser = (id: string, user: UserUpdate) =>
  api.put<User>(`/api/users/${segment(id)}`, user);
