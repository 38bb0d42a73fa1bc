import { api } from '../../../lib/api-client.ts';
import type { MyInspection } from '../../../types/api.ts';

export const getMyInspections = () => api.get<MyInspection[]>('/api/my/inspections?limit=20');
