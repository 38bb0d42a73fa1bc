import { api } from '../../../lib/api-client.ts';
import type { Floorplan } from '../../../types/api.ts';

export const getFloorplans = () => api.get<Floorplan[]>('/api/floorplans');
