// The built web app the end-to-end server serves. Built once per source state into a temp folder
// of its own (never dist/, which other people rebuild while tests run) and shared by every test file:
// the folder name is a hash of what goes into the bundle, so a stale build is never reused.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

const wasmFile = path.join(repoRoot, 'build/path-core.wasm');
const bundledFolders = ['src', 'workers'];
const bundledFiles = ['index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];
const notBundled = /\.test\.tsx?$|__screenshots__/;
const staleAfterMs = 60 * 60 * 1000;
const buildTimeoutMs = 120_000;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !notBundled.test(file))
    .sort();
}

function sourceHash(): string {
  const hash = createHash('sha256');
  // Builds made before the mode was pinned (vitest's NODE_ENV=test gave React's development
  // build) must not be reused.
  hash.update('NODE_ENV=production');
  const files = [
    ...bundledFolders.flatMap((folder) => filesUnder(path.join(repoRoot, folder))),
    ...bundledFiles.map((file) => path.join(repoRoot, file)),
    wasmFile,
  ];
  for (const file of files) {
    hash.update(path.relative(repoRoot, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid in a lock folder; 0 while it is still being written or already gone. */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Builds with `vite build` into `target`, via a private folder renamed at the end (atomic). */
function build(target: string): void {
  const scratch = `${target}.tmp-${process.pid}`;
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
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`vite build for the e2e tests failed:\n${result.stderr}${result.stdout}`);
  }
  renameSync(scratch, target);
}

/** Removes builds of older source states, left by earlier runs. */
function removeOldBuilds(keep: string): void {
  const parent = path.dirname(keep);
  for (const name of readdirSync(parent)) {
    const full = path.join(parent, name);
    if (!name.startsWith('lc-e2e-web-') || full === keep) continue;
    if (Date.now() - statSync(full).mtimeMs > staleAfterMs) {
      rmSync(full, { recursive: true, force: true });
    }
  }
}

/**
 * The folder of a `vite build` of the current sources. Test files run in parallel: one builds
 * (holding a lock folder with its pid), the others wait for it.
 */
export async function webBuild(): Promise<string> {
  if (!existsSync(wasmFile)) {
    throw new Error(`${wasmFile} is missing: run 'npm run build:wasm' first`);
  }
  const target = path.join(tmpdir(), `lc-e2e-web-${sourceHash()}`);
  const lock = `${target}.lock`;
  const deadline = Date.now() + buildTimeoutMs;
  while (!existsSync(path.join(target, 'index.html'))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the web build in ${target}`);
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building; a lock whose builder died is taken over.
      const owner = lockOwner(lock);
      if (owner > 0 && !processAlive(owner)) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (!existsSync(path.join(target, 'index.html'))) build(target);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  removeOldBuilds(target);
  return target;
}
