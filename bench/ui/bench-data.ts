// The UI bench's data folder: the demo dataset (loaded through the server's own first-start seed)
// plus one long inspection per size on Blister Line 1, registered through the server's db and
// storage modules before the server process starts on the same folder.
import { eq } from 'drizzle-orm';
import { lineClearances, users, videos } from '../../server/db/schema.ts';
import { newId } from '../../server/ids.ts';
import { seedEmptyDatabase } from '../../server/seed.ts';
import { build } from '../../server/test/build.ts';
import { walkDuration, walkKeyframes } from './walk-keyframes.ts';

export interface BenchData {
  /** The server's environment (DATA_DIR and the rest) for the process that serves the bench. */
  env: Record<string, string>;
  /** Video id per keyframe line count. */
  videoIds: Map<number, string>;
  /** Removes the data folder. */
  remove(): Promise<void>;
}

/** Builds the folder; `log` reports progress (the 10^7-line file takes a while). */
export async function createBenchData(
  sizes: readonly number[],
  distDir: string,
  log: (line: string) => void,
): Promise<BenchData> {
  const t = await build(
    { DEMO: 'on', DIST_DIR: distDir, LOG_LEVEL: 'warn', LOGIN_RATE_LIMIT: '100000' },
    { postgresUrl: null, onDisk: true },
  );
  try {
    const { db, storage } = t.services.ctx;
    await seedEmptyDatabase(t.services.ctx, t.app.log);
    const [line] = await db
      .select()
      .from(lineClearances)
      .where(eq(lineClearances.name, 'Blister Line 1'));
    const [operator] = await db.select().from(users).where(eq(users.email, 'operator@example.com'));
    if (!line || !operator) throw new Error('the demo data has no Blister Line 1 or operator');
    const videoIds = new Map<number, string>();
    for (const lines of sizes) {
      const id = newId();
      const started = performance.now();
      const { size } = await storage.put(`keyframes/${id}.txt`, walkKeyframes(lines, lines));
      log(
        `  ${lines} keyframe lines: ${(size / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      await db.insert(videos).values({
        id,
        filename: `bench-walk-${lines}.mp4`,
        // No media file: a 92-hour MP4 is not generated, so the page takes the time bounds from
        // the keyframes (the player's media error is only logged, spec §8).
        storageKey: `videos/bench-walk-${lines}.mp4`,
        keyframesKey: `keyframes/${id}.txt`,
        subfolder: `bench-walk-${lines}`,
        userId: operator.id,
        lineClearanceId: line.id,
        timestamp: new Date(Date.UTC(2026, 10, 30, 8, 0, 0)),
        duration: walkDuration(lines),
      });
      videoIds.set(lines, id);
    }
    const env = t.env;
    await t.stop();
    return { env, videoIds, remove: () => t.close() };
  } catch (error) {
    await t.close();
    throw error;
  }
}
