import { describe, expect, test } from 'vitest';
import { ByteCollector } from './byte-collector.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('byte collector', () => {
  test('chunks come out in order, in the buffer sized up front', () => {
    const collector = new ByteCollector(5);
    collector.append(bytes(1, 2));
    collector.append(bytes(3, 4, 5));
    expect(Array.from(collector.take())).toEqual([1, 2, 3, 4, 5]);
    expect(collector.take().buffer.byteLength).toBe(5);
  });

  test('more than expected (or nothing expected) grows the buffer', () => {
    const short = new ByteCollector(2);
    short.append(bytes(1, 2, 3));
    short.append(bytes(4));
    expect(Array.from(short.take())).toEqual([1, 2, 3, 4]);
    const unknown = new ByteCollector(0);
    const big = new Uint8Array(3 << 20).fill(7);
    unknown.append(big);
    unknown.append(bytes(9));
    expect(unknown.take().length).toBe((3 << 20) + 1);
    expect(unknown.take()[3 << 20]).toBe(9);
  });

  test('nothing appended is an empty file; bad input is refused', () => {
    expect(new ByteCollector(10).take().length).toBe(0);
    expect(() => new ByteCollector(-1)).toThrow(/expectedBytes must be an integer/);
    expect(() => new ByteCollector(1).append([1] as unknown as Uint8Array)).toThrow(/Uint8Array/);
  });
});
