import { api, segment } from '../../../lib/api-client.ts';
import type { Disposition } from '../../../types/api.ts';

/** A reviewer's decision on one detection: confirmed, or dismissed with a reason. */
export const setDisposition = (
  inspectionId: string,
  predictionId: string,
  disposition: Disposition['disposition'],
  reason: string,
) =>
  api.put<Disposition>(
    `/api/inspections/${segment(inspectionId)}/dispositions/${segment(predictionId)}`,
    { disposition, reason },
  );
