// Where the path player writes its names on the plan (display pixels): each tag's and hot zone's
// label at the first of a few spots beside it that lies on the plan and clear of every tag disc
// and of the labels placed before it, so no name covers another (QA: 'Forming station' under
// 'Thermoformer rear'). Pure geometry: the caller measures the text.

/** A label's spot: its left edge and its middle, as drawLabel takes them. */
export interface LabelSpot {
  left: number;
  middle: number;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface LabelLayoutInput {
  plan: { width: number; height: number };
  /** Tag discs: centre and name. */
  tags: readonly { x: number; y: number; name: string }[];
  tagRadius: number;
  /** Hot zones: their rectangle and name. */
  zones: readonly { x: number; y: number; width: number; height: number; name: string }[];
  /** A label's width in display pixels. */
  measure: (text: string) => number;
  /** A label's height, its halo included. */
  lineHeight: number;
}

export interface LabelLayout {
  tags: LabelSpot[];
  zones: LabelSpot[];
}

/** Space between a label and what it names. */
const GAP = 4;

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Tags first (a name beside its disc is how a tag is told apart), right of the disc as before,
 * else left, above or below it; then each zone, inside its top left corner as before, else its
 * other corners, else just above or below it. With no free spot the first one on the plan is kept.
 */
export function layoutLabels(input: LabelLayoutInput): LabelLayout {
  const { plan, tagRadius: r, lineHeight: h } = input;
  const taken: Box[] = input.tags.map(({ x, y }) => ({
    left: x - r,
    top: y - r,
    right: x + r,
    bottom: y + r,
  }));
  const place = (width: number, spots: LabelSpot[]): LabelSpot => {
    const boxOf = (spot: LabelSpot): Box => ({
      left: spot.left,
      top: spot.middle - h / 2,
      right: spot.left + width,
      bottom: spot.middle + h / 2,
    });
    const onPlan = (box: Box) =>
      box.left >= 0 && box.top >= 0 && box.right <= plan.width && box.bottom <= plan.height;
    const chosen =
      spots.find((spot) => {
        const box = boxOf(spot);
        return onPlan(box) && !taken.some((other) => overlaps(box, other));
      }) ??
      spots.find((spot) => onPlan(boxOf(spot))) ??
      (spots[0] as LabelSpot);
    taken.push(boxOf(chosen));
    return chosen;
  };
  const tags = input.tags.map(({ x, y, name }) => {
    const width = input.measure(name);
    const beside = r + GAP;
    const over = r + GAP / 2 + h / 2;
    return place(width, [
      { left: x + beside, middle: y },
      { left: x - beside - width, middle: y },
      { left: x - width / 2, middle: y - over },
      { left: x - width / 2, middle: y + over },
    ]);
  });
  const zones = input.zones.map(({ x, y, width: w, height: zh, name }) => {
    const width = input.measure(name);
    const [left, right] = [x + GAP, x + w - GAP - width];
    const [top, bottom] = [y + GAP + h / 2, y + zh - GAP - h / 2];
    return place(width, [
      { left, middle: top },
      { left: right, middle: top },
      { left, middle: bottom },
      { left: right, middle: bottom },
      { left: x, middle: y - h / 2 - GAP / 2 },
      { left: x, middle: y + zh + h / 2 + GAP / 2 },
    ]);
  });
  return { tags, zones };
}
