// Runs before every browser test file: tests of one file share the page, so what one test left in
// session storage or in the page's URL (a dashboard's open tab, `?tab=`) must not decide where the
// next one starts.
import { beforeEach } from 'vitest';

beforeEach(() => {
  sessionStorage.clear();
  const url = new URL(location.href);
  if (url.searchParams.has('tab')) {
    url.searchParams.delete('tab');
    history.replaceState(history.state, '', url);
  }
});
