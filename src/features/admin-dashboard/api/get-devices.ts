import { api } from '../../../lib/api-client.ts';
import type { Device } from '../../../types/api.ts';

export const getDevices = () => api.get<Device[]>('/api/devices');
