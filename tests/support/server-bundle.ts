// The server bundle that test servers start (`npm run build` makes the same for `npm start`),
// made once per state of its sources by whichever test file needs it first.
import path from 'node:path';
import { bundleServer } from '../../scripts/build-server.ts';
import { buildOnce, filesUnder, hashFiles, repoRoot } from './build-once.ts';

const bundleFile = 'main.mjs';

/** The path of `main.mjs` built from the current sources. */
export async function currentServerBundle(): Promise<string> {
  const folder = await buildOnce({
    prefix: 'lc-test-server-',
    // Inside the repository: the bundle's packages resolve from its folder up to node_modules.
    parent: path.join(repoRoot, 'node_modules', '.cache'),
    hash: hashFiles([
      ...filesUnder('server', /\.test\.ts$/),
      ...filesUnder('workers', /\.test\.ts$/),
      path.join(repoRoot, 'scripts', 'build-server.ts'),
      path.join(repoRoot, 'package-lock.json'),
    ]),
    doneMarker: bundleFile,
    timeoutMs: 120_000,
    make: (scratch) => bundleServer(path.join(scratch, bundleFile)),
  });
  return path.join(folder, bundleFile);
}
