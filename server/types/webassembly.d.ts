// Node has the WebAssembly global, but @types/node 20 does not declare it (the DOM and WebWorker
// libs do). The server runs the path engine (workers/path-engine.ts) for inspection reports; these
// are the members that engine uses.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class RuntimeError extends Error {}
  function compile(bytes: BufferSource): Promise<Module>;
}
type BufferSource = ArrayBufferView | ArrayBuffer;
