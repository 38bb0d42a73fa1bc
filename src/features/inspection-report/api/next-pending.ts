import { getReport, getReports } from '../../../api/get-reports.ts';
import type { ReportRow } from '../../../types/api.ts';

/** Rows a request: the queue's next is nearly always among the first two (this one, then it). */
const BATCH = 10;

/**
 * The next pending inspection the caller may sign after `current`, in queue order (oldest first):
 * the first one after it, else, from the start, the first one before it; null when there is none.
 * Its own inspections are skipped (an operator cannot sign them); any other candidate's report
 * says whether the caller may sign it (a password rule may forbid it), and one it may not is
 * skipped too.
 */
export async function nextPendingInspection(
  current: { inspectionId: string; startTime: string },
  userId: string,
): Promise<string | null> {
  const signable = async (row: ReportRow) =>
    row.inspectionId !== current.inspectionId &&
    row.operatorId !== userId &&
    (await getReport(row.inspectionId)).canSign;
  // The list's keyset cursor (`{ms}_{id}`, the ReportsQuery `after` pattern) of the current record.
  const here = `${new Date(current.startTime).getTime()}_${current.inspectionId}`;
  for (const start of [here, undefined]) {
    let after = start;
    do {
      const page = await getReports({ status: 'pending', sort: 'startTime', limit: BATCH, after });
      for (const row of page.rows) {
        // From the start again, the queue ends where it began: past that, all were seen.
        const wrapped =
          start === undefined &&
          (row.startTime > current.startTime ||
            (row.startTime === current.startTime && row.inspectionId >= current.inspectionId));
        if (wrapped) return null;
        if (await signable(row)) return row.inspectionId;
      }
      after = page.next ?? undefined;
    } while (after);
  }
  return null;
}
