// The scratch folders killed analysis runs leave under the temporary folder are removed, and only
// those: a folder of a run going on (here or in another process on the machine) stays.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisJobs } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { createLine, createRecordedInspection } from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';
import { PIPELINE_VERSION } from './runner.ts';
import { FOREIGN_FOLDER_LIFETIME_MS, removeAbandonedWorkFolders } from './work-folders.ts';

let t: TestApp;
let people: RoleUsers;
let lineId: string;
let junk: string;

beforeAll(async () => {
  t = await build({ ANALYSIS_POLL_MS: '100', ANALYSIS_RETRY_SECONDS: '0' });
  people = await createRoleUsers(t);
  lineId = await createLine(t, people.lc.id, people.operator.id);
  junk = path.join(t.dataDir, 'junk.mp4');
  fs.writeFileSync(junk, 'not a video');
});
afterAll(() => t?.close());

const hour = 3600_000;

/** A job of a new video, in the given state. */
async function job(values: Partial<typeof analysisJobs.$inferInsert>) {
  const { videoId } = await createRecordedInspection(t, {
    lineId,
    operatorId: people.operator.id,
    file: junk,
  });
  const [row] = await t.services.ctx.db
    .insert(analysisJobs)
    .values({ id: newId(), videoId, maxAttempts: 3, pipelineVersion: PIPELINE_VERSION, ...values })
    .returning();
  if (!row) throw new Error('job not inserted');
  return row.id;
}

/** A work folder with a decoded frame in it, as a run leaves it. */
function folder(dir: string, name: string, ageMs = 0): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.join(file, 'frames'), { recursive: true });
  fs.writeFileSync(path.join(file, 'frames', '1.000.png'), 'frame');
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
  return file;
}

describe('removeAbandonedWorkFolders', () => {
  it('removes the folders of attempts no longer running, and strangers’ only when old', async () => {
    const { db } = t.services.ctx;
    const worker = 'this-host:1:aaaaaa';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-work-folders-test-'));
    const running = await job({
      state: 'running',
      attempts: 2,
      lockedBy: 'other-process:2:bbbbbb',
      lockedUntil: new Date(Date.now() + hour),
    });
    const mineLate = await job({
      state: 'running',
      attempts: 1,
      lockedBy: worker,
      lockedUntil: new Date(Date.now() - 1000),
    });
    const dead = await job({
      state: 'running',
      attempts: 1,
      lockedBy: 'killed-process:3:cccccc',
      lockedUntil: new Date(Date.now() - 1000),
    });
    const failed = await job({ state: 'failed', attempts: 1 });
    const queued = await job({ state: 'queued', attempts: 1 });
    const stranger = newId();
    const kept = [
      folder(dir, `lc-analysis-${running}-2-Ab12cD`),
      // Named before attempts were: its job runs, so it may be the running attempt's.
      folder(dir, `lc-analysis-${running}-Xy34zW`),
      // This process's run, whose heartbeat is late: it still works there.
      folder(dir, `lc-analysis-${mineLate}-1-Qw56eR`),
      // Another installation's job, recently written: maybe running.
      folder(dir, `lc-analysis-${stranger}-1-Ty78uI`, FOREIGN_FOLDER_LIFETIME_MS - hour),
      folder(dir, 'lc-analysis-not-a-job'),
      folder(dir, 'something-else'),
    ];
    const removed = [
      // The running job's earlier attempt, killed.
      folder(dir, `lc-analysis-${running}-1-Op90aS`),
      folder(dir, `lc-analysis-${dead}-1-Df12gH`),
      folder(dir, `lc-analysis-${failed}-1-Jk34lZ`),
      folder(dir, `lc-analysis-${queued}-1-Xc56vB`),
      folder(dir, `lc-analysis-${stranger}-2-Nm78qW`, FOREIGN_FOLDER_LIFETIME_MS + hour),
    ];
    try {
      expect(await removeAbandonedWorkFolders(db, worker, dir)).toBe(removed.length);
      for (const file of kept) expect(fs.existsSync(file), file).toBe(true);
      for (const file of removed) expect(fs.existsSync(file), file).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      // Not for the runner started below.
      await db.delete(analysisJobs);
    }
  });
});

describe('the runner', () => {
  it('removes killed runs’ folders when it starts and when it claims a job', async () => {
    const { analysis } = t.services.ctx;
    const atStart = folder(
      os.tmpdir(),
      `lc-analysis-${await job({ state: 'failed', attempts: 1 })}-1-Ab12cD`,
    );
    await analysis.start(t.services.ctx.dbKind);
    expect(fs.existsSync(atStart)).toBe(false);

    const atClaim = folder(
      os.tmpdir(),
      `lc-analysis-${await job({ state: 'failed', attempts: 1 })}-1-Ab12cD`,
    );
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: people.operator.id,
      file: junk,
    });
    const queued = await analysis.enqueue(videoId, people.operator.id);
    if (!queued) throw new Error('no job queued');
    expect((await analysis.settled(queued.id)).state).toBe('failed');
    expect(fs.existsSync(atClaim)).toBe(false);
  });
});
