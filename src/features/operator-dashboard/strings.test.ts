import { describe, expect, it } from 'vitest';
import { operatorStrings as s } from './strings.ts';

describe('operator dashboard strings', () => {
  it('says why a line cannot be started, in words', () => {
    expect(s.cannotStart('maintenance')).toBe('Cannot start: the line is under maintenance');
    expect(s.cannotStart('inactive')).toBe('Cannot start: the line is inactive');
  });
});
