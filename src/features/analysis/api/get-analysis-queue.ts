import { api } from '../../../lib/api-client.ts';
import type { AnalysisRow } from '../../../types/api.ts';

/** The caller's recent videos with their inspection and latest analysis job. */
export const getAnalysisQueue = () => api.get<AnalysisRow[]>('/api/analysis');
