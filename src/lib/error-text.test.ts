import { describe, expect, it } from 'vitest';
import { errorText } from './error-text.ts';

describe('errorText', () => {
  it('gives an error’s message', () => {
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('gives the name of an error with an empty message', () => {
    expect(errorText(new DOMException('', 'QuotaExceededError'))).toBe('QuotaExceededError');
    expect(errorText(new RangeError())).toBe('RangeError');
  });

  it('gives anything else thrown as text', () => {
    expect(errorText('offline')).toBe('offline');
    expect(errorText(undefined)).toBe('undefined');
  });
});
