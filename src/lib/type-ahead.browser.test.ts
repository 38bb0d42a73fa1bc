import { describe, expect, it } from 'vitest';
import { selectionLabel, TypeAhead } from './type-ahead.ts';

const labels = ['Blister line', 'Bottling line', 'Cartoner', 'Capper'];

describe('type-ahead (reset after 500 ms)', () => {
  it('extends the search while typing quickly', () => {
    const typeAhead = new TypeAhead();
    expect(typeAhead.type('b', labels, 0)).toBe(0);
    expect(typeAhead.type('o', labels, 100)).toBe(1);
    expect(typeAhead.type('t', labels, 600)).toBe(1);
  });

  it('starts a new search after more than 500 ms', () => {
    const typeAhead = new TypeAhead();
    typeAhead.type('b', labels, 0);
    expect(typeAhead.type('c', labels, 500)).toBe(-1);
    expect(typeAhead.type('c', labels, 1001)).toBe(2);
  });
});

describe('selectionLabel', () => {
  it('shows the placeholder, then names, then "{0} items selected"', () => {
    expect(selectionLabel([], 'Select lines')).toBe('Select lines');
    expect(selectionLabel(['A', 'B', 'C'], 'x')).toBe('A, B, C');
    expect(selectionLabel(['A', 'B', 'C', 'D'], 'x')).toBe('4 items selected');
  });
});
