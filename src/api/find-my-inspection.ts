import { api } from '../lib/api-client.ts';
import type { MyInspection } from '../types/api.ts';

/** One of the signed-in operator's inspections as the server has it now (their latest 200). */
export async function findMyInspection(
  inspectionId: string,
  signal?: AbortSignal,
): Promise<MyInspection | undefined> {
  const mine = await api.get<MyInspection[]>('/api/my/inspections?limit=200', { signal });
  return mine.find((m) => m.inspection._id === inspectionId);
}
