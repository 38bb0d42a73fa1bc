// The built web app the end-to-end server serves. Built once per source state into a temp folder
// of its own (never dist/, which other people rebuild while tests run) and shared by every test file:
// the folder name is a hash of what goes into the bundle, so a stale build is never reused.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, filesUnder, hashFiles, repoRoot } from '../../support/build-once.ts';

export { repoRoot };

const wasmFile = path.join(repoRoot, 'build/path-core.wasm');
const bundledFolders = ['src', 'workers'];
const bundledFiles = ['index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];
const notBundled = /\.test\.tsx?$|__screenshots__/;
const buildTimeoutMs = 120_000;

/** Builds with `vite build` into `scratch`. */
async function build(scratch: string): Promise<void> {
  const result = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      scratch,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // The app as shipped: vitest sets NODE_ENV=test, with which Vite bundles React's development
    // build (about 1.6 times the code, slower renders), which the tests and the UI bench would measure.
    {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: buildTimeoutMs,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (result.status !== 0) {
    throw new Error(`vite build for the e2e tests failed:\n${result.stderr}${result.stdout}`);
  }
}

/** The folder of a `vite build` of the current sources. */
export function webBuild(): Promise<string> {
  if (!existsSync(wasmFile)) {
    throw new Error(`${wasmFile} is missing: run 'npm run build:wasm' first`);
  }
  const files = [
    ...bundledFolders.flatMap((folder) => filesUnder(folder, notBundled)),
    ...bundledFiles.map((file) => path.join(repoRoot, file)),
    wasmFile,
  ];
  return buildOnce({
    prefix: 'lc-e2e-web-',
    // Builds made before the mode was pinned (vitest's NODE_ENV=test gave React's development
    // build) must not be reused.
    hash: hashFiles(files, 'NODE_ENV=production'),
    doneMarker: 'index.html',
    timeoutMs: buildTimeoutMs,
    make: build,
  });
}
