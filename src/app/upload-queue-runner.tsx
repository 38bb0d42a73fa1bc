import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { session } from '../stores/session.ts';

/**
 * Runs a signed-in operator's upload queue from whichever page is open, so recordings left on the
 * device resume after a reload anywhere in the app, not only on /operator or /inspection. Every
 * open tab lists them; one at a time uploads (docs/capture.md, Tabs). The queue (and
 * tus-js-client) loads on demand: other roles never download it.
 */
export function UploadQueueRunner() {
  const snap = useSnapshot(session);
  const operatorId = snap.loggedIn && snap.roles.includes('operator') ? (snap.info?.id ?? '') : '';
  useEffect(() => {
    if (!operatorId) return;
    void import('../lib/capture/upload-queue.ts').then((queue) =>
      queue.startUploadQueue(operatorId),
    );
  }, [operatorId]);
  return null;
}
