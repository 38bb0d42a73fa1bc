import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRange } from './range.ts';

describe('parseRange', () => {
  it('reads the forms browsers send', () => {
    expect(parseRange('bytes=0-', 1000)).toEqual({
      kind: 'partial',
      range: { start: 0, end: 999 },
    });
    expect(parseRange('bytes=-500', 1000)).toEqual({
      kind: 'partial',
      range: { start: 500, end: 999 },
    });
    expect(parseRange('bytes=-5000', 1000)).toEqual({
      kind: 'partial',
      range: { start: 0, end: 999 },
    });
    expect(parseRange('bytes=10-19', 1000)).toEqual({
      kind: 'partial',
      range: { start: 10, end: 19 },
    });
    expect(parseRange('bytes=990-2000', 1000)).toEqual({
      kind: 'partial',
      range: { start: 990, end: 999 },
    });
  });

  it('answers unsatisfiable past the end or inverted, full for other headers', () => {
    expect(parseRange('bytes=1000-', 1000).kind).toBe('unsatisfiable');
    expect(parseRange('bytes=20-10', 1000).kind).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000).kind).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0).kind).toBe('unsatisfiable');
    expect(parseRange(undefined, 1000).kind).toBe('full');
    expect(parseRange('bytes=0-1,5-9', 1000).kind).toBe('full');
    expect(parseRange('items=0-1', 1000).kind).toBe('full');
  });

  it('any partial answer lies inside the file', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(10_000), (header, size) => {
        const result = parseRange(`bytes=${header}`, size);
        if (result.kind !== 'partial') return;
        expect(result.range.start).toBeGreaterThanOrEqual(0);
        expect(result.range.end).toBeLessThan(size);
        expect(result.range.start).toBeLessThanOrEqual(result.range.end);
      }),
    );
  });
});
