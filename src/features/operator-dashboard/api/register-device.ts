import { api } from '../../../lib/api-client.ts';
import type { Device } from '../../../types/api.ts';

/** Registers the device whose QR label was read (an already known label answers its device). */
export const registerDevice = (qrCode: string) => api.post<Device>('/api/devices', { qrCode });
