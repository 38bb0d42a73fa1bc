import { describe, expect, it } from 'vitest';
import type { ChecklistSnapshot } from '../../types/api.ts';
import { judgeScan, pathAtRisk, scannableTags } from './checklist.ts';

const checklist: ChecklistSnapshot = {
  floorplanConfigId: 'c'.repeat(24),
  tags: [
    { x: 1, y: 1, name: 'Gate', qrCode: 'LC1-TAG-01', index: 0 },
    { x: 2, y: 2, name: 'Hopper', qrCode: ' LC1-TAG-02 ', index: 1 },
    { x: 3, y: 3, name: 'Label only', index: 2 },
  ],
  hotZones: [],
};
const others = [{ qrCode: 'LC2-TAG-01', lineName: 'Bottling Line 2' }];

describe('judging a scanned code against the checklist', () => {
  it('ticks this line’s tags, once; a repeat is recognised as such', () => {
    expect(judgeScan('LC1-TAG-02', checklist, others, new Set())).toEqual({
      kind: 'checkpoint',
      tagIndex: 1,
      name: 'Hopper',
      repeat: false,
    });
    expect(judgeScan('LC1-TAG-01', checklist, others, new Set([0]))).toMatchObject({
      kind: 'checkpoint',
      repeat: true,
    });
  });

  it('warns about another line’s tag and unknown codes', () => {
    expect(judgeScan('LC2-TAG-01', checklist, others, new Set())).toEqual({
      kind: 'other-line',
      lineName: 'Bottling Line 2',
    });
    expect(judgeScan('Label only', checklist, others, new Set())).toEqual({ kind: 'unknown' });
    expect(judgeScan('', checklist, others, new Set())).toEqual({ kind: 'unknown' });
  });

  it('counts only tags with a QR code as checkpoints', () => {
    expect(scannableTags(checklist).map((tag) => tag.index)).toEqual([0, 1]);
  });
});

describe('whether the analysis can draw the path', () => {
  it('needs two checkpoints scanned, on a line that has two or more', () => {
    expect(pathAtRisk(4, 0)).toBe(true);
    expect(pathAtRisk(4, 1)).toBe(true);
    expect(pathAtRisk(4, 2)).toBe(false);
    expect(pathAtRisk(2, 2)).toBe(false);
    // A line with fewer checkpoints: recording again would not help.
    expect(pathAtRisk(1, 0)).toBe(false);
    expect(pathAtRisk(0, 0)).toBe(false);
  });
});
