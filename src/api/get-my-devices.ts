import { api } from '../lib/api-client.ts';
import type { Device } from '../types/api.ts';

/** The devices the signed-in user registered (phones, cameras). */
export const getMyDevices = () => api.get<Device[]>('/api/my/devices');
