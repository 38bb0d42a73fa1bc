import { api } from '../lib/api-client.ts';
import type { LineClearance } from '../types/api.ts';

export const getLineClearances = () => api.get<LineClearance[]>('/api/line-clearances');
