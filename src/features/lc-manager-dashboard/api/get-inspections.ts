import { api } from '../../../lib/api-client.ts';
import type { Inspection } from '../../../types/api.ts';

export const getInspections = () => api.get<Inspection[]>('/api/inspections');
