import { api } from '../../../lib/api-client.ts';
import type { ListedInspection } from '../../../types/api.ts';

/** Each inspection says what blocks its approval (`approvalBlocker`), if anything. */
export const getInspections = () => api.get<ListedInspection[]>('/api/inspections');
