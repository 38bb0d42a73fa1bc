import { api, segment } from '../../../lib/api-client.ts';
import type { User, UserUpdate } from '../../../types/api.ts';

/**
 * Spec §7: PUT sends the whole user (the server ignores `_id` and `id`), with the version it was
 * opened at (a save over a newer one is refused with 409).
 */
export const updateUser = (id: string, user: UserUpdate) =>
  api.put<User>(`/api/users/${segment(id)}`, user);
