import { describe, expect, it } from 'vitest';
import { nextColor, palette } from './palette.ts';

describe('48-colour palette', () => {
  it('has 48 distinct colours', () => {
    expect(palette).toHaveLength(48);
    expect(new Set(palette.map((c) => c.toLowerCase())).size).toBe(48);
  });

  it('takes the first unused colour', () => {
    expect(nextColor([])).toBe(palette[0]);
    expect(nextColor([palette[0] as string])).toBe(palette[1]);
    expect(nextColor([palette[1] as string, palette[0] as string, palette[3] as string])).toBe(
      palette[2],
    );
    expect(nextColor([(palette[0] as string).toUpperCase()])).toBe(palette[1]);
  });

  it('ignores colours that are not in the palette', () => {
    expect(nextColor(['#123456'])).toBe(palette[0]);
  });

  it('cycles once all 48 are used', () => {
    const used = [...palette];
    expect(nextColor(used)).toBe(palette[0]);
    used.push(palette[0] as string);
    expect(nextColor(used)).toBe(palette[1]);
  });
});
