import { describe, expect, it } from 'vitest';
import { changes } from './audit-changes.ts';

const lines = (oldValue: unknown, newValue: unknown, limit?: number) =>
  changes(oldValue, newValue, limit).map((change) => change.line);

/** Tags as the floor-plan wizard saves them: no id of their own. */
const tag = (name: string, x = 210) => ({
  x,
  y: 282.67,
  name,
  color: '#e6194b',
  qrCode: `QR-${name}`,
  description: 'Forming station guard, aisle side',
});
const tags = ['Thermoformer front', 'Thermoformer rear', 'Sealing station', 'Cartoner'].map(
  (name, i) => tag(name, 100 * i),
);
const config = (list: unknown[], hotZones: unknown[] = []) => ({
  version: 1,
  configuration: { displaySize: { width: 800, height: 600 }, tags: list, hotZones },
});

describe('the old → new of a list of records', () => {
  it('names the item (by its name too) and the field that changed, not the two whole lists', () => {
    const renamed = tags.map((item, i) =>
      i === 0 ? { ...item, name: 'Thermoformer front (renamed)' } : item,
    );
    expect(lines(config(tags), config(renamed))).toEqual([
      'configuration.tags[0] (Thermoformer front).name: Thermoformer front → Thermoformer front (renamed)',
    ]);
    // The last item's change reads as plainly as the first's (a cut line would hide it).
    const moved = tags.map((item, i) => (i === 3 ? { ...item, x: 310, color: '#000' } : item));
    expect(lines(config(tags), config(moved))).toEqual([
      'configuration.tags[3] (Cartoner).x: 300 → 310',
      'configuration.tags[3] (Cartoner).color: #e6194b → #000',
    ]);
  });

  it('reads an item inserted or removed in the middle as that item, the later ones unchanged', () => {
    const added = tag('Blister feeder', 150);
    const inserted = [...tags.slice(0, 2), added, ...tags.slice(2)];
    expect(lines(config(tags), config(inserted))).toEqual([
      `configuration.tags[2] (added): — → ${JSON.stringify(added)}`,
    ]);
    const removed = [tags[0], tags[1], tags[3]];
    expect(lines(config(tags), config(removed))).toEqual([
      `configuration.tags[2] (removed): ${JSON.stringify(tags[2])} → —`,
    ]);
    // A change beside an insertion: the changed item field by field, the new one whole.
    const both = [{ ...tags[0], name: 'Front' }, added, ...tags.slice(1)];
    expect(lines(config(tags), config(both))).toEqual([
      'configuration.tags[0] (Thermoformer front).name: Thermoformer front → Front',
      `configuration.tags[1] (added): — → ${JSON.stringify(added)}`,
    ]);
  });

  it('matches items by their id where every item has one, whatever their order', () => {
    const zones = [
      { _id: 'z1', name: 'Forming', importance: 'high' },
      { _id: 'z2', name: 'Sealing', importance: 'medium' },
      { _id: 'z3', name: 'Cartoning', importance: 'low' },
    ];
    const edited = [
      { _id: 'z4', name: 'Reject bin', importance: 'critical' },
      { ...zones[2], importance: 'high' },
      zones[0],
    ];
    expect(lines(config([], zones), config([], edited))).toEqual([
      `configuration.hotZones[0] (added): — → ${JSON.stringify(edited[0])}`,
      'configuration.hotZones[1] (Cartoning).importance: low → high',
      `configuration.hotZones[1] (removed): ${JSON.stringify(zones[1])} → —`,
    ]);
    // Only the order changed: said as the whole lists, not as nothing.
    const reordered = [zones[1], zones[0], zones[2]];
    expect(lines({ zones }, { zones: reordered }, 1000)).toEqual([
      `zones: ${JSON.stringify(zones)} → ${JSON.stringify(reordered)}`,
    ]);
  });

  it('compares lists within items, and points item by item', () => {
    const points = [
      [0, 0],
      [10, 0],
      [10, 10],
    ];
    const before = { slamPoints: points, zone: { corners: [{ x: 1 }] } };
    const after = {
      slamPoints: points.map((point, i) => (i === 1 ? [10, 5] : point)),
      zone: { corners: [{ x: 2 }] },
    };
    expect(lines(before, after)).toEqual([
      'slamPoints[1]: [10,0] → [10,5]',
      'zone.corners[0].x: 1 → 2',
    ]);
  });

  it('keeps a list of plain values whole, as it reads best', () => {
    expect(lines({ roles: ['audit'] }, { roles: ['audit', 'lc_manager'] })).toEqual([
      'roles: ["audit"] → ["audit","lc_manager"]',
    ]);
  });

  it('keeps the whole item of a long line behind its disclosure', () => {
    const long = tag('x'.repeat(200));
    const [added] = changes(config(tags), config([...tags, long]));
    expect(added?.line).toMatch(/^configuration\.tags\[4\] \(added\): — → \{.{159}…$/);
    expect(added?.full).toEqual({ old: '—', new: JSON.stringify(long, null, 2) });
  });
});
