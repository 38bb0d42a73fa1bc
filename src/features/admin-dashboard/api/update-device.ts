import { api, segment } from '../../../lib/api-client.ts';
import type { Device, DeviceUpdate } from '../../../types/api.ts';

/**
 * Spec §7: PUT sends the whole device (the server ignores `_id` and `qrCode`), with the version it
 * was opened at (a save over a newer one is refused with 409).
 */
export const updateDevice = (id: string, device: DeviceUpdate) =>
  api.put<Device>(`/api/devices/${segment(id)}`, device);
