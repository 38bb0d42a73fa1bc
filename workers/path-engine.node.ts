// The path engine in Node (tests, bench, tools): reads build/path-core.wasm from disk.
// Build it first with `npm run build:wasm`.
//
//   import { createNodePathEngine } from './workers/path-engine.node.ts';
//   const engine = await createNodePathEngine();
//   const { columns, report } = engine.parseKeyframes(bytes);

import { readFile } from 'node:fs/promises';
import { PathEngine, type PathEngineOptions } from './path-engine.ts';

export { PathEngine } from './path-engine.ts';

const WASM_URL = new URL('../build/path-core.wasm', import.meta.url);

let compiled: Promise<WebAssembly.Module> | null = null;

/** Compiled once per process; every engine gets its own instance (its own memory). */
function compileCore(): Promise<WebAssembly.Module> {
  compiled ??= readFile(WASM_URL).then(
    (bytes) => WebAssembly.compile(bytes),
    (error: NodeJS.ErrnoException) => {
      compiled = null;
      throw new Error(
        `cannot read the path core at ${WASM_URL.pathname} (${error.code ?? error.message}): ` +
          'build it with npm run build:wasm',
      );
    },
  );
  return compiled;
}

export async function createNodePathEngine(options?: PathEngineOptions): Promise<PathEngine> {
  return PathEngine.create(await compileCore(), options);
}
