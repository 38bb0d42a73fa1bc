// Bundles the server (server/main.ts and the TypeScript it imports; not node_modules) into one ES
// module that Node starts without tsx: tsx's loader made each start cost about 10 s of CPU on two
// cores (docs/server.md, Start-up). `npm run build` writes build/server/main.mjs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** Where `npm run build` puts it and `npm run serve` starts it from. */
export const serverBundle = path.join(repoRoot, 'build', 'server', 'main.mjs');

/**
 * Each module keeps its own import.meta.url, so the server finds its files (migrations, demo
 * data, the PGlite worker) beside its source wherever the bundle is. The bundle must still be
 * inside the repository: packages resolve from its folder up to node_modules.
 */
const ownModuleUrl: Plugin = {
  name: 'own-module-url',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

export async function bundleServer(outfile: string): Promise<void> {
  if (!path.resolve(outfile).startsWith(repoRoot + path.sep)) {
    throw new Error(
      `The server bundle must be inside ${repoRoot} to find node_modules: ${outfile}`,
    );
  }
  await build({
    entryPoints: [path.join(repoRoot, 'server', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [ownModuleUrl],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundleServer(serverBundle);
}
