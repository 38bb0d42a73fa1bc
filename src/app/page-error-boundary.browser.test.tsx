import { lazy, Suspense, useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Link, Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { cleanup, render } from '../../tests/web/render.tsx';
import { PageErrorBoundary, pageErrorStrings as s } from './page-error-boundary.tsx';

afterEach(async () => {
  await cleanup();
});

// What Chromium rejects a page's import with when its chunk is gone (a new build is installed).
const GoneChunk = lazy(() =>
  Promise.reject(
    new TypeError(
      'Failed to fetch dynamically imported module: http://x/assets/reports-page-Dt.js',
    ),
  ),
);
function Broken(): never {
  throw new Error('cannot read the inspection');
}

async function show(path: string) {
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook}>
      <Link href="/home">Home</Link>
      <PageErrorBoundary>
        <Suspense fallback={<p>Loading…</p>}>
          <Switch>
            <Route path="/reports" component={GoneChunk} />
            <Route path="/broken" component={Broken} />
            <Route path="/home">
              <h1>Home page</h1>
            </Route>
          </Switch>
        </Suspense>
      </PageErrorBoundary>
    </Router>,
  );
  return memory;
}

describe('a page that fails to show', () => {
  it('says that its code did not load, offers Reload, and the rest of the app stays', async () => {
    await show('/reports');
    await expect.element(page.getByRole('heading', { name: s.heading })).toBeVisible();
    await expect.element(page.getByRole('alert')).toHaveTextContent(s.codeMissing);
    await expect.element(page.getByRole('button', { name: s.reload })).toBeVisible();
    await expect
      .element(page.getByRole('link', { name: s.startPage }))
      .toHaveAttribute('href', '/');
    // Leaving the page leaves the message behind.
    await page.getByRole('link', { name: 'Home' }).click();
    await expect.element(page.getByRole('heading', { name: 'Home page' })).toBeVisible();
    expect(page.getByRole('alert').query()).toBeNull();
  });

  it('leaves pages mounted as they were when the path changes (a landing redirect runs once)', async () => {
    let mounts = 0;
    function Counted() {
      useEffect(() => {
        mounts++;
      }, []);
      return <Link href="/page/two">Next</Link>;
    }
    const memory = memoryLocation({ path: '/page/one', record: true });
    await render(
      <Router hook={memory.hook}>
        <PageErrorBoundary>
          <Route path="/page/:name" component={Counted} />
        </PageErrorBoundary>
      </Router>,
    );
    await page.getByRole('link', { name: 'Next' }).click();
    await expect.poll(() => memory.history.at(-1)).toBe('/page/two');
    expect(mounts).toBe(1);
  });

  it('names any other error, to be reported', async () => {
    await show('/broken');
    const alert = page.getByRole('alert');
    await expect.element(alert).toHaveTextContent(s.failed);
    await expect.element(alert).toHaveTextContent('cannot read the inspection');
  });
});
