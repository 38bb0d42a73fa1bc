import { describe, expect, it } from 'vitest';
import { type LabelLayoutInput, type LabelSpot, layoutLabels } from './label-layout.ts';

/** About the path player's 11 px labels: 6 px a character. */
const measure = (text: string) => text.length * 6;
const lineHeight = 14;
const tagRadius = 9;

const boxOf = (spot: LabelSpot, text: string) => ({
  left: spot.left,
  top: spot.middle - lineHeight / 2,
  right: spot.left + measure(text),
  bottom: spot.middle + lineHeight / 2,
});
type Box = ReturnType<typeof boxOf>;
const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Every label's box and every tag's disc, none of which may cover another. */
function drawnBoxes(input: LabelLayoutInput) {
  const layout = layoutLabels(input);
  const labels = [
    ...input.tags.map((tag, i) => boxOf(layout.tags[i] as LabelSpot, tag.name)),
    ...input.zones.map((zone, i) => boxOf(layout.zones[i] as LabelSpot, zone.name)),
  ];
  const discs = input.tags.map(({ x, y }) => ({
    left: x - tagRadius,
    top: y - tagRadius,
    right: x + tagRadius,
    bottom: y + tagRadius,
  }));
  return { layout, labels, discs };
}

describe('layoutLabels', () => {
  // The demo's blister line at 700 px (QA): a tag on the zone's top edge, its name over the zone's.
  const forming = {
    plan: { width: 700, height: 440 },
    tags: [
      { x: 229, y: 466 - 360, name: 'Thermoformer rear' },
      { x: 229, y: 595 - 360, name: 'Thermoformer front' },
    ],
    zones: [{ x: 180, y: 463 - 360, width: 100, height: 142, name: 'Forming station' }],
    tagRadius,
    measure,
    lineHeight,
  };

  it('moves a zone’s name off a tag’s name and disc, which covered it where it always went', () => {
    const { layout, labels, discs } = drawnBoxes(forming);
    // Where the zone's name used to go: inside its top left corner, under the tag's name.
    const before = boxOf({ left: 184, middle: 463 - 360 + 9 }, 'Forming station');
    expect(overlaps(before, labels[0] as Box) || overlaps(before, discs[0] as Box)).toBe(true);

    for (const [i, label] of labels.entries()) {
      for (const other of labels.slice(i + 1)) expect(overlaps(label, other)).toBe(false);
      for (const disc of discs) expect(overlaps(label, disc)).toBe(false);
    }
    // Still inside its zone: another corner.
    const zone = labels[2] as Box;
    expect(zone.left).toBeGreaterThanOrEqual(180);
    expect(zone.top).toBeGreaterThanOrEqual(463 - 360);
    expect(layout.tags[0]).toEqual({ left: 229 + tagRadius + 4, middle: 466 - 360 });
  });

  it('keeps the usual spots when nothing is in the way: right of a tag, a zone’s top left corner', () => {
    const layout = layoutLabels({
      ...forming,
      tags: [{ x: 50, y: 400, name: 'Gate' }],
    });
    expect(layout.tags).toEqual([{ left: 63, middle: 400 }]);
    expect(layout.zones).toEqual([{ left: 184, middle: 463 - 360 + 4 + lineHeight / 2 }]);
  });

  it('keeps a name on the plan: left of a tag by its right edge, below one at its top', () => {
    const layout = layoutLabels({
      ...forming,
      zones: [],
      tags: [
        { x: 690, y: 200, name: 'Case packer end' },
        { x: 30, y: 5, name: 'Corner' },
      ],
    });
    const [edge, corner] = layout.tags as [LabelSpot, LabelSpot];
    expect(edge.left + measure('Case packer end')).toBeLessThanOrEqual(690 - tagRadius);
    expect(corner.middle - lineHeight / 2).toBeGreaterThanOrEqual(5 + tagRadius);
    expect(corner.left).toBeGreaterThanOrEqual(0);
  });
});
