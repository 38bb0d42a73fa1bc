import { api } from '../../../lib/api-client.ts';
import type { MyLine } from '../../../types/api.ts';

export const getMyLines = () => api.get<MyLine[]>('/api/my/lines');
