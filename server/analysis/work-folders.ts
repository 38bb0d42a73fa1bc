// The scratch folders of analysis runs under the system's temporary folder: a run copies the video
// there and decodes its keyframes (gigabytes for a long recording) and removes the folder when it
// ends, but a killed process leaves it. Those no running job owns are removed when the runner
// starts and when it claims a job (docs/analysis.md, "Crash, restart, kill -9").
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { analysisJobs } from '../db/schema.ts';
import type { JobRow } from './job-queue.ts';

/**
 * A folder whose job this database does not know (another installation's on the same machine, or
 * a job deleted with its video) is left until it is this old: no run takes a day.
 */
export const FOREIGN_FOLDER_LIFETIME_MS = 24 * 3600 * 1000;

/** `lc-analysis-{jobId}-{attempt}-{mkdtemp's six characters}`; older runs named no attempt. */
const NAME = /^lc-analysis-([0-9a-f]{24})-(?:(\d+)-)?[A-Za-z0-9]{6}$/;

/** A new folder for one attempt of a job, named so that a later sweep knows whose it is. */
export const makeWorkFolder = (job: Pick<JobRow, 'id' | 'attempts'>, dir = os.tmpdir()) =>
  fs.mkdtemp(path.join(dir, `lc-analysis-${job.id}-${job.attempts}-`));

/**
 * Removes the work folders in `dir` that no running attempt owns; answers how many. A folder is
 * owned while its job is running that attempt under a lease not yet expired, or is held by
 * `worker` (this process, whose heartbeat may merely be late). Several processes may share the
 * folder, on one database or on several: a folder of a job this database does not know is left
 * until FOREIGN_FOLDER_LIFETIME_MS after it was last changed. A folder that cannot be removed now
 * is left for the next sweep.
 */
export async function removeAbandonedWorkFolders(
  db: Db,
  worker: string,
  dir = os.tmpdir(),
): Promise<number> {
  const folders = (await fs.readdir(dir)).flatMap((name) => {
    const match = NAME.exec(name);
    const jobId = match?.[1];
    if (!jobId) return [];
    return [{ name, jobId, attempt: match[2] === undefined ? null : Number(match[2]) }];
  });
  if (folders.length === 0) return 0;
  const jobs = await db
    .select({
      id: analysisJobs.id,
      attempts: analysisJobs.attempts,
      running: sql<boolean>`${analysisJobs.state} = 'running' and (${analysisJobs.lockedUntil} > now() or ${analysisJobs.lockedBy} = ${worker})`,
    })
    .from(analysisJobs)
    .where(inArray(analysisJobs.id, [...new Set(folders.map((folder) => folder.jobId))]));
  const byId = new Map(jobs.map((job) => [job.id, job]));
  let removed = 0;
  for (const folder of folders) {
    const file = path.join(dir, folder.name);
    try {
      const job = byId.get(folder.jobId);
      const owned = job
        ? job.running && (folder.attempt === null || folder.attempt === job.attempts)
        : (await fs.stat(file)).mtimeMs > Date.now() - FOREIGN_FOLDER_LIFETIME_MS;
      if (owned) continue;
      await fs.rm(file, { recursive: true, force: true });
      removed++;
    } catch {
      // Removed meanwhile by its own run, or not removable now: left for the next sweep.
    }
  }
  return removed;
}
