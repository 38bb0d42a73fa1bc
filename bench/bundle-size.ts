// Start-page JavaScript budget (issue 4): builds the app with a Vite manifest into a temporary
// folder, follows what the browser loads for `/` (the entry, its static imports, and the lazily
// loaded start page with its imports), and prints raw and gzip sizes per file.
// Writes bench/results/bundle.json. Exits 1 when the JavaScript is over 150 KB gzip.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

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
  const within = jsGzip <= budgetBytes;
  console.log(
    `JavaScript total: ${kb(jsRaw)} KB raw, ${kb(jsGzip)} KB gzip; budget ${kb(budgetBytes)} KB gzip: ${within ? 'within' : 'OVER'}`,
  );

  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/bundle.json',
    `${JSON.stringify(
      {
        page: '/',
        measuredAt: new Date().toISOString(),
        budgetGzipBytes: budgetBytes,
        jsGzipBytes: jsGzip,
        jsRawBytes: jsRaw,
        withinBudget: within,
        js,
        css: styles,
      },
      null,
      2,
    )}\n`,
  );
  if (!within) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
