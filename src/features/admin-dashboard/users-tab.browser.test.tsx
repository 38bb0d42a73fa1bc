import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { answerRequests, fileAnswer, watchSavedFiles } from '../../lib/media-download.fixtures.ts';
import { signIn, signOut } from '../../stores/session.ts';
import { UsersTab } from './users-tab.tsx';

let stopWatching = () => {};

afterEach(async () => {
  stopWatching();
  await cleanup();
  vi.unstubAllGlobals();
  signOut();
});

const csv = '\ufeffName,Email\r\nPriya Nair,priya@example.com\r\n';

describe('the Users tab', () => {
  it('downloads the access review CSV through the media link', async () => {
    signIn('token', { id: 'u1', name: 'Pat Doe', email: 'pat@example.com', roles: ['admin'] });
    const sent = answerRequests({
      'GET /api/users.csv': () =>
        fileAnswer('text/csv; charset=utf-8', 'user-access-review-2026-11-28.csv', csv),
    });
    const watch = watchSavedFiles();
    stopWatching = watch.stop;
    await render(
      <UsersTab
        users={{ data: [], loading: false, reload: () => {} }}
        lineClearances={[]}
        onChanged={() => {}}
      />,
    );
    const link = page.getByRole('link', { name: 'Export CSV' });
    await expect.element(link).toHaveAttribute('href', '/api/users.csv');
    await link.click();
    await expect
      .poll(() => watch.saved)
      .toEqual([
        { name: 'user-access-review-2026-11-28.csv', bytes: new TextEncoder().encode(csv) },
      ]);
    expect(sent).toEqual([{ key: 'GET /api/users.csv', authorization: 'Bearer token' }]);
  });
});
