import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size.ts';

describe('formatSize (Bytes/KB/MB/GB, base 1024, 2 decimals)', () => {
  it('uses base 1024 units', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(1)).toBe('1 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 ** 2)).toBe('1 MB');
    expect(formatSize(1024 ** 3)).toBe('1 GB');
  });

  it('rounds to 2 decimals', () => {
    expect(formatSize(1234567)).toBe('1.18 MB');
    expect(formatSize(1025)).toBe('1 KB');
    expect(formatSize(5 * 1024 ** 3 + 123 * 1024 ** 2)).toBe('5.12 GB');
  });

  it('stays in GB above a terabyte', () => {
    expect(formatSize(2 * 1024 ** 4)).toBe('2048 GB');
  });

  it('rejects sizes that are not byte counts', () => {
    expect(() => formatSize(-1)).toThrow(/non-negative number of bytes, got -1/);
    expect(() => formatSize(Number.NaN)).toThrow(/got NaN/);
  });
});
