import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '../../tests/web/render.tsx';
import { startUploadQueue } from '../lib/capture/upload-queue.ts';
import { replaceAccessToken, signIn, signOut } from '../stores/session.ts';
import { UploadQueueRunner } from './upload-queue-runner.tsx';

vi.mock('../lib/capture/upload-queue.ts', () => ({ startUploadQueue: vi.fn() }));

afterEach(async () => {
  await cleanup();
  signOut();
});

describe('the upload queue runner', () => {
  it('waits for a password of the operator’s own: the server refuses uploads until then', async () => {
    signIn(
      'chosen-token',
      { id: 'op1', name: 'Rene', email: 'r@example.com', roles: ['operator'] },
      false,
    );
    await render(<UploadQueueRunner />);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(startUploadQueue).not.toHaveBeenCalled();
    replaceAccessToken('own-token');
    await expect.poll(() => vi.mocked(startUploadQueue).mock.calls).toEqual([['op1']]);
  });
});
