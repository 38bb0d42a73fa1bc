import { asReviewer } from '../../../api/sign-inspection.ts';
import { api, segment } from '../../../lib/api-client.ts';
import type { Disposition } from '../../../types/api.ts';

/**
 * A reviewer's decision on one detection: confirmed, or dismissed with a reason. `shown` is the
 * decision the page showed (null: none): another one stored meanwhile is not overwritten (409).
 */
export const setDisposition = (
  inspectionId: string,
  predictionId: string,
  disposition: Disposition['disposition'],
  reason: string,
  shown: Disposition | null,
) =>
  asReviewer(
    api.put<Disposition>(
      `/api/inspections/${segment(inspectionId)}/dispositions/${segment(predictionId)}`,
      {
        disposition,
        reason,
        seen: shown && { disposition: shown.disposition, at: shown.at },
      },
    ),
  );
