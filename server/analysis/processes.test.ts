// What only real processes show: a server killed with kill -9 in the middle of a job resumes it on
// restart with the same outputs as an uninterrupted run; two servers on one PostgreSQL run each
// job once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { simulateWalk } from '../../tests/support/simulated-walk.ts';
import { makeTestVideo } from '../../tests/support/test-video.ts';
import type { AnalysisRow } from '../schemas/analysis.ts';
import { createLine, createRecordedInspection } from '../test/analysis-fixtures.ts';
import { build, type TestApp } from '../test/build.ts';
import { createUser } from '../test/fixtures.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { locateFfmpeg } from './ffmpeg.ts';

const walk = simulateWalk({ seed: 3 });
const opened: TestApp[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const t of opened) await t.close();
});

/**
 * An app with an admin and `count` recorded inspections of the walk queued for analysis, then
 * stopped; the video is `seconds` long (the walk's whole length unless told).
 */
async function queuedVideos(
  count: number,
  options: { postgresUrl?: string | null; seconds?: number } = {},
) {
  const { seconds = walk.duration, ...buildOptions } = options;
  const t = await build({}, { onDisk: true, ...buildOptions });
  opened.push(t);
  const admin = await createUser(t, 'admin', ['admin']);
  const operator = await createUser(t, 'operator', ['operator']);
  const lineId = await createLine(t, null, operator.id);
  // The helper's small default size: how long a job takes is set by realTimeFfmpeg, not by size.
  const file = makeTestVideo(seconds, { dir: t.dataDir });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { videoId } = await createRecordedInspection(t, {
      lineId,
      operatorId: operator.id,
      file,
      walk,
    });
    await t.services.ctx.analysis.enqueue(videoId, admin.id);
    ids.push(videoId);
  }
  await t.stop();
  return { t, admin, ids };
}

/**
 * An ffmpeg for FFMPEG_PATH that reads its input at the video's own speed (-re): a server given it
 * spends the video's length in the keyframe step whatever the machine's speed, on little CPU.
 */
function realTimeFfmpeg(dir: string): string {
  const file = path.join(dir, 'ffmpeg-real-time');
  const ffmpeg = locateFfmpeg(process.env.FFMPEG_PATH ?? null).replaceAll("'", "'\\''");
  fs.writeFileSync(file, `#!/bin/sh\nexec '${ffmpeg}' -re "$@"\n`, { mode: 0o755 });
  return file;
}

async function queue(server: ServerProcess, token: string): Promise<AnalysisRow[]> {
  const res = await fetch(`${server.baseUrl}/api/analysis`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`GET /api/analysis: ${res.status}`);
  return (await res.json()) as AnalysisRow[];
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs = 240_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    // Each probe is a request the busy server answers: a quarter second is soon enough.
    await sleep(250);
  }
}

const get = async (server: ServerProcess, token: string, url: string) => {
  const res = await fetch(`${server.baseUrl}${url}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return Buffer.from(await res.arrayBuffer());
};

describe('a server killed mid-job', () => {
  it('resumes the job on restart and ends with the outputs of an uninterrupted run', async () => {
    const { t, admin, ids } = await queuedVideos(2);
    const [killed, uninterrupted] = ids as [string, string];
    const env = { ...t.env, ANALYSIS_POLL_MS: '100', ANALYSIS_LEASE_SECONDS: '3' };
    // Its keyframe step lasts the walk's length in real time: the kill lands inside it.
    const first = await startServerProcess({ ...env, FFMPEG_PATH: realTimeFfmpeg(t.dataDir) });
    servers.push(first);
    await until('the first job inside its keyframe step', async () => {
      const row = (await queue(first, admin.token)).find((r) => r.job?.state === 'running');
      return row?.job?.step === 'keyframes' ? row : null;
    });
    await first.kill9();

    const second = await startServerProcess(env);
    servers.push(second);
    const rows = await until('both jobs to end', async () => {
      const all = await queue(second, admin.token);
      return all.every((r) => r.job?.state === 'completed' || r.job?.state === 'failed')
        ? all
        : null;
    });
    const byId = new Map(rows.map((r) => [r.videoId, r]));
    const resumed = byId.get(killed)?.job;
    expect(resumed?.state, resumed?.error ?? '').toBe('completed');
    expect(byId.get(uninterrupted)?.job?.state).toBe('completed');
    // One of the two was interrupted and ran twice; the other ran once.
    expect(rows.map((r) => r.job?.attempts).sort()).toEqual([1, 2]);

    const keyframes = await Promise.all(
      [killed, uninterrupted].map((id) => get(second, admin.token, `/api/keyframes/${id}.txt`)),
    );
    expect(keyframes[0]?.toString()).toBe(keyframes[1]?.toString());
    const names = (keyframes[0]?.toString() ?? '').match(/\S+\.png/g) ?? [];
    expect(names.length).toBe(resumed?.summary?.keyframeImages);
    for (const name of [names[0], names[Math.floor(names.length / 2)], names.at(-1)]) {
      const [a, b] = await Promise.all(
        [killed, uninterrupted].map((id) =>
          get(second, admin.token, `/api/keyframes/${id}/${name}`),
        ),
      );
      expect(a?.equals(b ?? Buffer.alloc(0))).toBe(true);
    }
    // Nothing of the interrupted attempt is left behind, in storage or in its scratch folder.
    for (const id of ids) {
      expect(fs.readdirSync(path.join(t.dataDir, 'files', 'analysis', id))).toHaveLength(1);
    }
    const scratch = rows.map((r) => `lc-analysis-${r.job?.id}-`);
    expect(fs.readdirSync(os.tmpdir()).filter((n) => scratch.some((s) => n.startsWith(s)))).toEqual(
      [],
    );
    await second.stop();
  }, 600_000);
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('two servers on one PostgreSQL', () => {
  it('run each job exactly once', async () => {
    // Jobs of a few seconds on any machine: a 3 s video that ffmpeg reads at its own speed.
    const { t, admin, ids } = await queuedVideos(4, { postgresUrl, seconds: 3 });
    // One job at a time each, both starting together: started one after the other on a loaded
    // machine, the first server once finished all four before the second was up.
    const env = {
      ...t.env,
      ANALYSIS_POLL_MS: '100',
      ANALYSIS_CONCURRENCY: '1',
      FFMPEG_PATH: realTimeFfmpeg(t.dataDir),
    };
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    servers.push(a, b);
    const rows = await until('all jobs to end', async () => {
      const all = await queue(a, admin.token);
      return all.every((r) => r.job?.state === 'completed') ? all : null;
    });
    expect(rows.map((r) => r.videoId).sort()).toEqual([...ids].sort());
    expect(rows.map((r) => r.job?.attempts)).toEqual([1, 1, 1, 1]);
    await Promise.all([a.stop(), b.stop()]);
    const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await client.connect();
    try {
      const starts = await client.query<{ video: string; worker: string }>(
        `select entity_id as video, new_value->>'worker' as worker from audit_log where action = 'analysis.start'`,
      );
      expect(starts.rows.map((r) => r.video).sort()).toEqual([...ids].sort());
      // Both servers took part (four jobs, each a few seconds long, both polling).
      expect(new Set(starts.rows.map((r) => r.worker)).size).toBe(2);
    } finally {
      await client.end();
    }
  }, 600_000);
});
