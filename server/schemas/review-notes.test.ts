import { describe, expect, it } from 'vitest';
import { givesReason } from './review-notes.ts';

describe('givesReason', () => {
  it('takes three different words that are not a spec note', () => {
    for (const notes of ['Sealing station not checked', 'Tablets left under the hopper.']) {
      expect(givesReason(notes), notes).toBe(true);
    }
    for (const notes of [
      '',
      ' ',
      'ok',
      'not ok!',
      'ok ok ok',
      '- - -',
      'Rejected by LC Manager',
      ' rejected by lc manager. ',
      'approved by lc manager.',
    ]) {
      expect(givesReason(notes), notes).toBe(false);
    }
  });

  it('counts the words of languages written without spaces', () => {
    // Chinese, Japanese, Thai: one run of letters each, several words by dictionary.
    for (const notes of [
      '线路未清洁干净，发现残留药片。',
      'ライン上に前ロットの錠剤が残っていました。',
      'พบเม็ดยาตกค้างบนสายการผลิต',
    ]) {
      expect(givesReason(notes), notes).toBe(true);
    }
    // Still too few different words: 'not good', 'tablet tablet'.
    for (const notes of ['不行', '不干净', '錠剤 錠剤', 'ไม่ดี']) {
      expect(givesReason(notes), notes).toBe(false);
    }
  });
});
