// Keeps the screen on while recording (Screen Wake Lock API, where the browser has it). The lock
// is released whenever the page is hidden, so it is asked for again when the page shows.

/** Keeps the screen on; answers a function that lets it sleep again. */
export function keepScreenOn(): () => void {
  const wakeLock = (navigator as Navigator & { wakeLock?: WakeLock }).wakeLock;
  if (!wakeLock) return () => {};
  let sentinel: WakeLockSentinel | null = null;
  let wanted = true;
  const acquire = () => {
    if (!wanted || document.visibilityState !== 'visible') return;
    wakeLock.request('screen').then(
      (lock) => {
        if (wanted) sentinel = lock;
        else void lock.release();
      },
      () => {},
    );
  };
  document.addEventListener('visibilitychange', acquire);
  acquire();
  return () => {
    wanted = false;
    document.removeEventListener('visibilitychange', acquire);
    void sentinel?.release();
  };
}
