// Start-page JavaScript budget (issue 4): builds the app with a Vite manifest into a temporary
// folder, follows what the browser loads for `/` (the entry, its static imports, and the lazily
// loaded start page with its imports), and prints raw and gzip sizes per file.
// Writes bench/results/bundle-size.json. One build: the sizes do not vary from run to run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { startBenchRun } from './lib/results.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const budgetBytes = 150 * 1024;
const startPageSource = 'src/features/start/start-page.tsx';

function chunk(manifest: Manifest, key: string): ManifestChunk {
  const found = manifest[key];
  if (!found) throw new Error(`Vite manifest has no chunk "${key}"`);
  return found;
}

/** The chunk and everything it imports statically (what loads before it can run). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunk(manifest, key).imports ?? []) closure(manifest, imported, seen);
  return seen;
}

const run = startBenchRun('bundle-size');
const outDir = mkdtempSync(join(tmpdir(), 'bundle-size-'));
try {
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
  });
  const manifest = JSON.parse(
    readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('Vite manifest has no entry chunk');

  const keys = closure(manifest, entryKey);
  closure(manifest, startPageSource, keys);
  const files = [...keys].map((key) => chunk(manifest, key).file);
  const css = [...new Set([...keys].flatMap((key) => chunk(manifest, key).css ?? []))];

  const measure = (file: string) => {
    const bytes = readFileSync(join(outDir, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
  };
  const js = files.map(measure).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const styles = css.map(measure);
  const jsGzip = js.reduce((sum, row) => sum + row.gzipBytes, 0);
  const jsRaw = js.reduce((sum, row) => sum + row.bytes, 0);
  const kb = (n: number) => (n / 1024).toFixed(1);

  console.log('Start page (/) JavaScript, as the browser loads it');
  console.table(
    [...js, ...styles].map((row) => ({
      file: row.file,
      'raw KB': kb(row.bytes),
      'gzip KB': kb(row.gzipBytes),
    })),
  );
  await run.finish(
    [
      {
        target: 'start page (/) JavaScript, gzip',
        size: '',
        value: jsGzip,
        spread: null,
        measured: `${kb(jsGzip)} KB gzip (${kb(jsRaw)} KB raw, ${js.length} files; one build)`,
        goal: `≤ ${kb(budgetBytes)} KB gzip`,
        pass: jsGzip <= budgetBytes,
      },
    ],
    {
      page: '/',
      budgetGzipBytes: budgetBytes,
      jsGzipBytes: jsGzip,
      jsRawBytes: jsRaw,
      js,
      css: styles,
    },
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
