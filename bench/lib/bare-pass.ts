// A bare WebAssembly read + write pass, a module of its own (encoded here, about 100 bytes) so it
// stays out of build/path-core.wasm: it steps through a region 64 bytes at a time and writes every
// 16 bytes back (xor 0, so V8 cannot drop the store), nothing else. That is the memory ceiling of an
// in-place kernel: JS loop ÷ this pass is the most any in-place WebAssembly kernel could gain.

export const PAGE_BYTES = 65536;

function section(id: number, body: number[]): number[] {
  if (body.length > 127) throw new Error('bare pass: section too long for a 1-byte LEB128');
  return [id, body.length, ...body];
}

function name(text: string): number[] {
  return [text.length, ...new TextEncoder().encode(text)];
}

/** pass(start, end, zero): every 16 bytes of [start, end) (a multiple of 64 long) xor-ed with zero. */
function passModule(): Uint8Array<ArrayBuffer> {
  const [i32, v128, simd] = [0x7f, 0x7b, 0xfd];
  const get = (local: number) => [0x20, local];
  // v128.load / v128.store with alignment 2^4 and a byte offset below 128.
  const load = (offset: number) => [simd, 0x00, 4, offset];
  const store = (offset: number) => [simd, 0x0b, 4, offset];
  const step = (offset: number) => [
    ...get(0),
    ...get(0),
    ...load(offset),
    ...get(3),
    simd,
    0x51 /* v128.xor */,
    ...store(offset),
  ];
  const body = [
    1, // one group of locals: one v128 (local 3)
    1,
    v128,
    ...[...get(2), simd, 0x11], // i32x4.splat of zero
    0x21, // local.set 3
    3,
    0x03, // loop
    0x40,
    ...step(0),
    ...step(16),
    ...step(32),
    ...step(48),
    ...get(0),
    0x41, // i32.const 64
    0xc0,
    0x00,
    0x6a, // i32.add
    0x22, // local.tee 0
    0,
    ...get(1),
    0x49, // i32.lt_u
    0x0d, // br_if 0
    0,
    0x0b, // end loop
    0x0b, // end function
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 3, i32, i32, i32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 0]), // one memory, no pages yet: grown to fit
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('pass'), 0x00, 0]),
    ...section(10, [1, body.length, ...body]),
  ]);
}

export interface BarePass {
  /** One pass over what it holds. */
  run(): unknown;
}

function instantiate(bytes: number) {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(passModule()), {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  memory.grow(Math.ceil(bytes / PAGE_BYTES));
  const pass = instance.exports.pass as (start: number, end: number, zero: number) => void;
  return { f64: new Float64Array(memory.buffer), pass };
}

/** A read + write pass over copies of x and y held in a module of their own (as many bytes as the points). */
export function barePass(x: Float64Array, y: Float64Array): BarePass {
  // Each column padded to 64 bytes, so the loop's steps cover exactly the points.
  const column = Math.ceil((8 * x.length) / 64) * 64;
  const { f64, pass } = instantiate(2 * column);
  f64.set(x, 0);
  f64.set(y, column / 8);
  if (f64[x.length - 1] !== x[x.length - 1]) throw new Error('bare pass: copy failed');
  return { run: () => column > 0 && pass(0, 2 * column, 0) };
}
