import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumPath } from './tests/support/chromium.ts';
import { EndToEndFirstSequencer } from './tests/support/e2e-first-sequencer.ts';
import { workerFetchCommands, workerFetchFixtures } from './tests/support/worker-fetch-server.ts';
import viteConfig from './vite.config.ts';

// Two projects: `node` for unit, property and server tests; `browser` runs *.browser.test.ts(x)
// in Debian's headless Chromium, where the real worker, WASM and canvas exist.
export default defineConfig({
  ...viteConfig,
  // No /api proxy in tests: browser tests answer their own calls, and a media element's request
  // must not reach whatever happens to listen on port 8080.
  server: { ...viteConfig.server, proxy: {} },
  // Pre-bundle the app's dependencies up front: a re-bundle in the middle of a browser run reloads
  // the page and loads React twice ("reading 'useEffect'" of null) on a fresh cache.
  optimizeDeps: {
    include: [
      'react',
      'react-dom/client',
      'react/jsx-runtime',
      'radix-ui',
      '@radix-ui/react-dialog',
      'valtio',
      'valtio/utils',
      'wouter',
      'wouter/memory-location',
      'wouter/use-browser-location',
      'date-fns',
      'comlink',
      'qrcode',
      'tus-js-client',
      // The capture workers' (found late, when a test first starts a worker, and then reloaded
      // the page under a running test file, which never finished).
      'hash-wasm',
      'zxing-wasm/reader',
      // Browser tests that run axe on a screen (the dashboard's line clearance overview).
      'axe-core',
    ],
  },
  test: {
    // Vitest's default on 2 cores is one node worker, but most node test files wait on child
    // processes (the e2e server and Chromium) or on PGlite: two at a time fill the idle core.
    // `npm test` runs the browser project first, then this one: side by side took longer.
    maxWorkers: 2,
    sequence: { sequencer: EndToEndFirstSequencer },
    // expect.poll and expect.element wait up to 10 s, not Vitest's 1 s: a render, a worker round
    // trip or a browser action takes that long beside the rest of the suite on two busy cores.
    // A poll that ends early costs nothing; waits that cover more (a path load) say so.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['{assembly,workers,src,server,tests,bench,scripts}/**/*.test.{ts,tsx}'],
          exclude: ['**/*.browser.test.{ts,tsx}', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The files of a worker share one module graph: each server file imported the whole
          // server anew (server/ alone: 193 s isolated, 137 s shared). Each test builds its own app,
          // database and data folder, and module state is only caches of pure results.
          isolate: false,
        },
      },
      {
        extends: true,
        // Answers for the requests workers send themselves (tests/support/worker-fetch-server.ts).
        plugins: [workerFetchFixtures()],
        test: {
          name: 'browser',
          include: ['{workers,src,tests}/**/*.browser.test.{ts,tsx}'],
          setupFiles: ['tests/support/browser-setup.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
            commands: workerFetchCommands,
          },
        },
      },
    ],
  },
});
