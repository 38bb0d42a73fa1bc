import { getReport } from '../../../api/get-reports.ts';
import { asReviewer } from '../../../api/sign-inspection.ts';
import type { Disposition } from '../../../types/api.ts';

/**
 * The decision stored now on one detection (null: none), read from its report: a dismissal sent
 * again after no answer names the one it finds (`useDisposition`).
 */
export async function storedDisposition(
  inspectionId: string,
  predictionId: string,
): Promise<Disposition | null> {
  const report = await asReviewer(getReport(inspectionId));
  return report.detections.find((d) => d.predictionId === predictionId)?.disposition ?? null;
}
