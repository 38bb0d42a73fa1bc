// The idiomatic JavaScript keyframe parser a web developer would write: decode to a string,
// split into lines and fields, parseFloat each field. The bench's "idiomatic JS" baseline.
import type { KeyframeColumns } from '../../workers/path-types.ts';

export function parseKeyframesSplit(bytes: Uint8Array): KeyframeColumns & { badLines: number } {
  const text = new TextDecoder().decode(bytes);
  const index: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const t: number[] = [];
  let badLines = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const values = trimmed.split(/\s+/).slice(0, 4).map(parseFloat);
    if (values.length < 4 || !values.every(Number.isFinite)) {
      badLines++;
      continue;
    }
    index.push(values[0]!);
    x.push(values[1]!);
    y.push(values[2]!);
    t.push(values[3]!);
  }
  return {
    index: Float64Array.from(index),
    x: Float64Array.from(x),
    y: Float64Array.from(y),
    t: Float64Array.from(t),
    badLines,
  };
}
