import { describe, expect, it } from 'vitest';
import { drawLabel } from './canvas-label.ts';

/** A context that records where text goes; every character is 6 px wide. */
function recordingContext() {
  const filled: { text: string; x: number; y: number }[] = [];
  const ctx = {
    measureText: (text: string) => ({ width: text.length * 6 }),
    fillText: (text: string, x: number, y: number) => filled.push({ text, x, y }),
    strokeText: () => {},
  } as unknown as CanvasRenderingContext2D;
  return { ctx, filled };
}

const style = { font: '11px sans-serif', ink: '#000', halo: '#fff' };

describe('floor-plan labels', () => {
  it('sit right of their mark, or left of it where they would run past the plan’s edge', () => {
    const { ctx, filled } = recordingContext();
    drawLabel(ctx, style, 'Feeder', { x: 20, y: 10, leftEdge: 8, planWidth: 700 });
    // 'Case packer end' is 90 px wide: from x = 660 it would end at 750, past 700.
    drawLabel(ctx, style, 'Case packer end', { x: 660, y: 40, leftEdge: 648, planWidth: 700 });
    // Near both edges it starts at the plan's left edge rather than before it.
    drawLabel(ctx, style, 'Case packer end', { x: 40, y: 60, leftEdge: 30, planWidth: 100 });
    expect(filled).toEqual([
      { text: 'Feeder', x: 20, y: 10 },
      { text: 'Case packer end', x: 648 - 90 - 4, y: 40 },
      { text: 'Case packer end', x: 0, y: 60 },
    ]);
  });
});
