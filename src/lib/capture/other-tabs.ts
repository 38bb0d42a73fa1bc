// The tabs of one browser share the device's recordings (docs/capture.md). Web Locks say which
// tab is writing a recording (it holds the recording's lock from Record until the recording is
// kept; a closed or crashed tab lets go by itself) and which tab uploads a user's recordings (one
// lock per user); a BroadcastChannel tells the user's other tabs what changed. Without them (an
// older browser) a page knows only its own recordings and every page uploads, as before.

const PREFIX = 'line-clearance-capture';

/** The lock manager, where tabs can also message each other; null: each page on its own. */
const locks: LockManager | null =
  typeof navigator.locks === 'object' && typeof BroadcastChannel === 'function'
    ? navigator.locks
    : null;

const recordingLock = (id: string) => `${PREFIX}:recording:${id}`;

/** Recordings this page is writing now. */
const writingHere = new Set<string>();

export const writtenHere = (id: string) => writingHere.has(id);

/** Takes the recording's lock for as long as this page writes it; answers how to let go. */
export async function holdRecording(id: string): Promise<() => void> {
  writingHere.add(id);
  if (!locks) return () => writingHere.delete(id);
  let letGo = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  await new Promise<void>((granted) => {
    void locks.request(recordingLock(id), () => {
      granted();
      return held;
    });
  });
  return () => {
    writingHere.delete(id);
    letGo();
  };
}

/**
 * Runs `work` holding the recording's lock if no tab holds it, and answers true; false, without
 * running it, if one does (it is being recorded or worked on there). Without locks: unless this
 * page is writing it.
 */
export async function ifRecordingFree(id: string, work: () => Promise<void>): Promise<boolean> {
  if (!locks) {
    if (writingHere.has(id)) return false;
    await work();
    return true;
  }
  return locks.request(recordingLock(id), { ifAvailable: true }, async (lock) => {
    if (!lock) return false;
    await work();
    return true;
  });
}

/**
 * Runs `work` holding the recording's lock once no other tab holds it; answers false, without
 * running it, when `signal` ended the wait first. Without locks: at once.
 */
export async function withRecordingLock(
  id: string,
  signal: AbortSignal,
  work: () => Promise<void>,
): Promise<boolean> {
  if (signal.aborted) return false;
  if (!locks) {
    await work();
    return true;
  }
  let ran = false;
  try {
    return await locks.request(recordingLock(id), { signal }, async () => {
      ran = true;
      await work();
      return true;
    });
  } catch (error) {
    if (!ran && signal.aborted) return false;
    throw error;
  }
}

/**
 * Runs `work` holding the recording's lock once the tab writing it lets go (it stopped, closed or
 * crashed), as withRecordingLock. Without locks nothing tells, and it never runs: the page writing a
 * recording shows its own changes.
 */
export async function whenRecordingFree(
  id: string,
  signal: AbortSignal,
  work: () => Promise<void>,
): Promise<boolean> {
  return locks ? withRecordingLock(id, signal, work) : false;
}

/**
 * Calls `start` once this tab is the one uploading `userId`'s recordings (at once without locks),
 * and stays it until `signal` ends; when this tab closes, one of the others takes over.
 */
export function uploadWhileAllowed(userId: string, signal: AbortSignal, start: () => void): void {
  if (!locks) {
    start();
    return;
  }
  locks
    .request(`${PREFIX}:uploads:${userId}`, { signal }, () => {
      if (signal.aborted) return undefined;
      start();
      return new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    })
    .catch((error: unknown) => {
      // Aborted while waiting: another tab uploads, and this one no longer wants to.
      if (!signal.aborted) throw error;
    });
}

/** The channel `userId`'s tabs tell each other what changed on; null where there is none. */
export const channelFor = (userId: string): BroadcastChannel | null =>
  locks ? new BroadcastChannel(`${PREFIX}:${userId}`) : null;
