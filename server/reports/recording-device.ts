// The device a record's video was recorded on, as the report shows it and a signature keeps it
// (docs/signatures.md, "What a signature keeps"): a signed record names the device as it was
// signed, whatever the device list says later.
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import type { RecordingDevice } from '../schemas/signatures.ts';
import type { InspectionRecord, VideoRow } from './record.ts';

/** The video's device with its name as the device list has it now; null when it names none. */
export async function currentDevice(
  db: Db | Tx,
  video: Pick<VideoRow, 'deviceId'> | null,
): Promise<RecordingDevice | null> {
  if (!video?.deviceId) return null;
  const [device] = await db
    .select({ name: devices.name })
    .from(devices)
    .where(eq(devices.id, video.deviceId));
  return { id: video.deviceId, name: device?.name ?? null };
}

/** The device a record shows: as its signature kept it, else (unsigned, or older) as it is now. */
export async function shownDevice(
  db: Db | Tx,
  record: InspectionRecord,
): Promise<RecordingDevice | null> {
  const kept = record.kept?.device;
  return kept === undefined ? currentDevice(db, record.video) : kept;
}

/**
 * What the record hash covers of the device: the id the video names now, with the name shown (the
 * kept one, once signed), so a video given another device or a kept name edited afterwards reads
 * as changed since signing. Undefined for a signature made before the device was kept: its hash
 * stays as signed.
 */
export function deviceDigest(
  record: InspectionRecord,
  shown: RecordingDevice | null,
): RecordingDevice | null | undefined {
  if (record.signature && record.kept?.device === undefined) return undefined;
  const id = record.video?.deviceId ?? null;
  if (id === null) return null;
  return { id, name: shown?.id === id ? shown.name : null };
}

/** 'the recording device' when the video names another device than the signature kept. */
export function changedDevice(record: InspectionRecord): string[] {
  const kept = record.kept?.device;
  if (kept === undefined) return [];
  return (kept?.id ?? null) === (record.video?.deviceId ?? null) ? [] : ['the recording device'];
}
