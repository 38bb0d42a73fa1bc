import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials (at most 2)', () => {
  it('takes the first letter of each word, at most two, upper case', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('maria de la cruz')).toBe('MD');
    expect(initials('Operator')).toBe('O');
  });

  it('ignores extra spaces and keeps letters outside ASCII whole', () => {
    expect(initials('  Émile   Zola  ')).toBe('ÉZ');
    expect(initials('Łukasz')).toBe('Ł');
  });

  it('is empty for an empty name', () => {
    expect(initials('   ')).toBe('');
  });
});
