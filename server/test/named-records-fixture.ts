// For the tests of `namedIn` (server/services/named-records.ts): records naming an object, and the
// lists that count them.
import { videos } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { TestApp } from './build.ts';

/** A video row naming its recorder, line or device (what else a video has does not matter here). */
export async function insertVideo(
  t: TestApp,
  names: { userId?: string; lineClearanceId?: string; deviceId?: string },
): Promise<void> {
  const id = newId();
  await t.services.ctx.db.insert(videos).values({
    id,
    filename: `${id}.webm`,
    storageKey: `videos/${id}.webm`,
    subfolder: id,
    timestamp: new Date(),
    ...names,
  });
}

/** The list at `url` as the holder of `auth` reads it, `namedIn` included where sent. */
export async function listed(
  t: TestApp,
  url: string,
  auth: { authorization: string },
): Promise<{ _id: string; namedIn?: object }[]> {
  return (await t.app.inject({ url, headers: auth })).json();
}
