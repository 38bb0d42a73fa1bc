import { api, segment } from '../../../lib/api-client.ts';
import type { MyLineDetail } from '../../../types/api.ts';

/** A line checkpoint a QR code belongs to: its name where the operator is assigned to the line. */
export interface CheckpointOf {
  tag: string | null;
  line: string;
}

/**
 * The QR codes of line checkpoints, trimmed, from GET /api/my/lines/{id} of the given lines: each
 * one's own tags by name, and every other line's (which each answer lists, by line only).
 */
export async function getCheckpointCodes(
  lineIds: readonly string[],
): Promise<Map<string, CheckpointOf>> {
  const details = await Promise.all(
    lineIds.map((id) => api.get<MyLineDetail>(`/api/my/lines/${segment(id)}`)),
  );
  const codes = new Map<string, CheckpointOf>();
  for (const { line, checklist } of details) {
    for (const tag of checklist.tags) {
      if (tag.qrCode) codes.set(tag.qrCode.trim(), { tag: tag.name, line: line.name });
    }
  }
  for (const { otherLineTags } of details) {
    for (const { qrCode, lineName } of otherLineTags) {
      if (!codes.has(qrCode.trim())) codes.set(qrCode.trim(), { tag: null, line: lineName });
    }
  }
  return codes;
}
