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
  // Not before the password is the operator's own: the server refuses the uploads until then,
  // and the queue would take that refusal as final.
  const runs = snap.loggedIn && snap.ownPassword && snap.roles.includes('operator');
  const operatorId = runs ? (snap.info?.id ?? '') : '';
  useEffect(() => {
    if (!operatorId) return;
    void import('../lib/capture/upload-queue.ts').then((queue) =>
      queue.startUploadQueue(operatorId),
    );
  }, [operatorId]);
  return null;
}
