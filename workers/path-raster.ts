// The drawn path as a coverage raster, so that drawing the path up to any time costs one pass over
// the canvas's pixels however long the path is (docs/path-player.md, "Speed").
//
// For every device pixel it keeps the earliest kept point whose dot or connecting line touches
// it, how much of the pixel that point covers (antialiasing) and the earliest point that covers it
// fully. The picture of kept[0 .. n) is then a threshold: a pixel shows when its earliest point is
// below n. Earlier points lie on top of later ones, which makes the picture a pure function of n.
// Points are stamped in order, so the raster can be built in slices (a prefix is exact as soon as
// it is stamped). Stamping also lists the pixels in the order their earliest (and earliest full)
// point was stamped, so going from the picture of a points to that of b rewrites only the pixels
// whose threshold lies between a and b: a scrub step costs what it changes, not the whole canvas.
// No DOM: it runs in the path worker and in Node tests.

/** An sRGB colour as 0..255 channels. */
export type Rgb = readonly [red: number, green: number, blue: number];

/** What a kept point looks like, in CSS pixels: a ringed dot, joined to the previous one by a line. */
export interface PathStyle {
  /** Spec §9: the marker radius of a path point other than the current one. */
  dotRadius: number;
  ringWidth: number;
  lineWidth: number;
  fill: Rgb;
  ring: Rgb;
  line: Rgb;
}

export const PATH_STYLE: PathStyle = {
  dotRadius: 7,
  ringWidth: 1.5,
  lineWidth: 3,
  fill: [37, 99, 235],
  ring: [255, 255, 255],
  line: [37, 99, 235],
};

/** The raster's size in device pixels and how many device pixels make a CSS (display) pixel. */
export interface RasterSize {
  width: number;
  height: number;
  pixelRatio: number;
}

const NONE = 0x7fffffff;
const FILL = 0;
const RING = 1;
const LINE = 2;
/** A dot's centre is rounded to 1/SUBPIXEL of a pixel to pick a precomputed stamp. */
const SUBPIXEL = 4;

/** A dot drawn once per sub-pixel offset: `look` = tone << 8 | coverage, 0 outside the dot. */
interface DotStamp {
  size: number;
  /** Offset of the stamp's first column and row from the centre's whole pixel. */
  origin: number;
  looks: Uint16Array[];
}

/** RGBA pixels (native-endian u32) for every tone << 8 | alpha. */
function lookTable(style: PathStyle): Uint32Array {
  const bytes = new Uint8ClampedArray(4 * 3 * 256);
  [style.fill, style.ring, style.line].forEach(([red, green, blue], tone) => {
    for (let alpha = 0; alpha < 256; alpha++) {
      bytes.set([red, green, blue, alpha], 4 * ((tone << 8) | alpha));
    }
  });
  return new Uint32Array(bytes.buffer);
}

/** Coverage of a pixel whose centre is `distance` from an edge at `reach`: a one-pixel ramp. */
function coverage(reach: number, distance: number): number {
  const amount = reach - distance;
  return amount <= 0 ? 0 : amount >= 1 ? 255 : Math.round(amount * 255);
}

function dotStamp(radius: number, fillRadius: number): DotStamp {
  const reach = radius + 0.5;
  const origin = -Math.ceil(reach) - 1;
  const size = 2 * Math.ceil(reach) + 3;
  const looks: Uint16Array[] = [];
  for (let sy = 0; sy < SUBPIXEL; sy++) {
    for (let sx = 0; sx < SUBPIXEL; sx++) {
      const look = new Uint16Array(size * size);
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const dx = origin + col + 0.5 - sx / SUBPIXEL;
          const dy = origin + row + 0.5 - sy / SUBPIXEL;
          const distance = Math.sqrt(dx * dx + dy * dy);
          const amount = coverage(reach, distance);
          if (amount > 0)
            look[row * size + col] = ((distance < fillRadius ? FILL : RING) << 8) | amount;
        }
      }
      looks.push(look);
    }
  }
  return { size, origin, looks };
}

function requireSize(size: RasterSize): RasterSize {
  const { width, height, pixelRatio } = size;
  const whole = (n: number) => Number.isInteger(n) && n > 0 && n <= 16_384;
  if (!whole(width) || !whole(height)) {
    throw new RangeError(
      `PathRaster: width and height must be integers in 1..16384, got ${width}×${height}`,
    );
  }
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0 && pixelRatio <= 8)) {
    throw new RangeError(`PathRaster: pixelRatio must be in (0, 8], got ${pixelRatio}`);
  }
  return size;
}

/** Rows [top, bottom) of the raster, device pixels; empty when top === bottom. */
export interface RowSpan {
  top: number;
  bottom: number;
}

/**
 * Pixels listed in the order a per-pixel threshold (first or full) was set, which is the order of
 * the points, with where each point's pixels start: the pixels whose threshold lies in [a, b) are
 * order[start[a] .. start[b]).
 */
class ThresholdOrder {
  readonly order: Int32Array;
  /** start[i]: pixels listed before point i was stamped (set for every stamped i and the next). */
  readonly start: Int32Array;
  count = 0;

  constructor(area: number, points: number) {
    this.order = new Int32Array(area);
    this.start = new Int32Array(points + 1);
  }
}

export class PathRaster {
  readonly width: number;
  readonly height: number;
  /** Points stamped so far: the raster is exact for any draw count up to this. */
  private stamped = 0;
  private previous = -1;
  /** Per pixel: the earliest kept point touching it (NONE if none does). */
  private readonly first: Int32Array;
  /** Per pixel: the earliest kept point covering it fully. */
  private readonly full: Int32Array;
  /** Per pixel: tone << 8 | coverage by the `first` point. */
  private readonly look: Uint16Array;
  private readonly firstOrder: ThresholdOrder;
  private readonly fullOrder: ThresholdOrder;
  private readonly colours: Uint32Array;
  /** The picture of `shown` points (all clear: 0 points). */
  private readonly pixels: Uint32Array<ArrayBuffer>;
  private shown = 0;
  private changed: RowSpan = { top: 0, bottom: 0 };
  private readonly x: Float32Array;
  private readonly y: Float32Array;
  private readonly pixelRatio: number;
  private readonly dot: DotStamp;
  private readonly halfLine: number;
  /** Dots closer than this hide the line between them, which then needs no drawing. */
  private readonly hiddenLine: number;

  /** The points are read as stamping proceeds: the caller must not change them. */
  constructor(x: Float32Array, y: Float32Array, size: RasterSize, style: PathStyle = PATH_STYLE) {
    if (x.length !== y.length) {
      throw new RangeError(`PathRaster: x and y differ in length (${x.length} vs ${y.length})`);
    }
    const { width, height, pixelRatio } = requireSize(size);
    this.width = width;
    this.height = height;
    this.x = x;
    this.y = y;
    this.pixelRatio = pixelRatio;
    const area = width * height;
    this.first = new Int32Array(area).fill(NONE);
    this.full = new Int32Array(area).fill(NONE);
    this.look = new Uint16Array(area);
    this.firstOrder = new ThresholdOrder(area, x.length);
    this.fullOrder = new ThresholdOrder(area, x.length);
    this.pixels = new Uint32Array(area);
    this.colours = lookTable(style);
    const radius = style.dotRadius * pixelRatio;
    this.dot = dotStamp(radius, (style.dotRadius - style.ringWidth) * pixelRatio);
    this.halfLine = (style.lineWidth / 2) * pixelRatio;
    // Two dots of radius r hide a line of half-width h between them when they are at most
    // 2·√(r² − h²) apart (their lens is at least as wide as the line); a pixel of margin.
    this.hiddenLine = 2 * Math.sqrt(Math.max(0, radius * radius - (this.halfLine + 1) ** 2));
  }

  /** How many points are stamped; all of them once `complete`. */
  get stampedCount(): number {
    return this.stamped;
  }

  get complete(): boolean {
    return this.stamped === this.x.length;
  }

  /** Stamps points up to `count` (at most all of them); a no-op for points already stamped. */
  stampTo(count: number): void {
    const end = Math.min(count, this.x.length);
    const { x, y, pixelRatio, firstOrder, fullOrder } = this;
    for (let i = this.stamped; i < end; i++) {
      firstOrder.start[i] = firstOrder.count;
      fullOrder.start[i] = fullOrder.count;
      const px = x[i]! * pixelRatio;
      const py = y[i]! * pixelRatio;
      // Mapping puts non-finite points at the image centre; never trust that here either.
      if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
      this.stampDot(i, px, py);
      if (this.previous >= 0) {
        const ax = x[this.previous]! * pixelRatio;
        const ay = y[this.previous]! * pixelRatio;
        const dx = px - ax;
        const dy = py - ay;
        if (dx * dx + dy * dy > this.hiddenLine * this.hiddenLine) {
          this.stampLine(i, ax, ay, px, py);
        }
      }
      this.previous = i;
    }
    if (end > this.stamped) {
      firstOrder.start[end] = firstOrder.count;
      fullOrder.start[end] = fullOrder.count;
      this.stamped = end;
    }
  }

  /** Marks one pixel as touched by point i with `look` (tone << 8 | coverage). */
  private mark(p: number, i: number, look: number): void {
    const { first, full } = this;
    if (full[p] !== NONE) return;
    if (first[p] === NONE) {
      first[p] = i;
      this.look[p] = look;
      this.firstOrder.order[this.firstOrder.count++] = p;
    } else if (first[p] === i && (look & 255) > (this.look[p]! & 255)) {
      this.look[p] = (this.look[p]! & 0xff00) | (look & 255);
    }
    if ((look & 255) === 255) {
      full[p] = i;
      this.fullOrder.order[this.fullOrder.count++] = p;
    }
  }

  private stampDot(i: number, px: number, py: number): void {
    const { width, height, dot, full } = this;
    const qx = Math.round(px * SUBPIXEL);
    const qy = Math.round(py * SUBPIXEL);
    const baseX = Math.floor(qx / SUBPIXEL);
    const baseY = Math.floor(qy / SUBPIXEL);
    const sx = qx - baseX * SUBPIXEL;
    const sy = qy - baseY * SUBPIXEL;
    const looks = dot.looks[sy * SUBPIXEL + sx]!;
    const left = baseX + dot.origin;
    const top = baseY + dot.origin;
    const rowFrom = Math.max(0, -top);
    const rowTo = Math.min(dot.size, height - top);
    const colFrom = Math.max(0, -left);
    const colTo = Math.min(dot.size, width - left);
    for (let row = rowFrom; row < rowTo; row++) {
      const line = (top + row) * width + left;
      const stampRow = row * dot.size;
      for (let col = colFrom; col < colTo; col++) {
        const look = looks[stampRow + col]!;
        if (look === 0) continue;
        const p = line + col;
        if (full[p] !== NONE) continue;
        this.mark(p, i, look);
      }
    }
  }

  /** The line from the previous point to point i, a capsule of the line's half-width. */
  private stampLine(i: number, ax: number, ay: number, bx: number, by: number): void {
    const { width, height, full } = this;
    const dx = bx - ax;
    const dy = by - ay;
    const length2 = dx * dx + dy * dy;
    const reach = this.halfLine + 0.5;
    const rowFrom = Math.max(0, Math.floor(Math.min(ay, by) - reach));
    const rowTo = Math.min(height - 1, Math.ceil(Math.max(ay, by) + reach));
    for (let row = rowFrom; row <= rowTo; row++) {
      const cy = row + 0.5;
      // The part of the segment within `reach` of this row, as its parameter t ∈ [0, 1].
      let tFrom = 0;
      let tTo = 1;
      if (Math.abs(dy) > 1e-9) {
        const t1 = (cy - reach - ay) / dy;
        const t2 = (cy + reach - ay) / dy;
        tFrom = Math.max(0, Math.min(t1, t2));
        tTo = Math.min(1, Math.max(t1, t2));
        if (tFrom > tTo) continue;
      } else if (Math.abs(cy - ay) > reach) {
        continue;
      }
      const xa = ax + dx * tFrom;
      const xb = ax + dx * tTo;
      const colFrom = Math.max(0, Math.floor(Math.min(xa, xb) - reach));
      const colTo = Math.min(width - 1, Math.ceil(Math.max(xa, xb) + reach));
      for (let col = colFrom; col <= colTo; col++) {
        const p = row * width + col;
        if (full[p] !== NONE) continue;
        const cx = col + 0.5;
        let t = ((cx - ax) * dx + (cy - ay) * dy) / length2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const ex = cx - ax - t * dx;
        const ey = cy - ay - t * dy;
        const amount = coverage(reach, Math.sqrt(ex * ex + ey * ey));
        if (amount > 0) this.mark(p, i, (LINE << 8) | amount);
      }
    }
  }

  /**
   * The RGBA pixels (unpremultiplied, row-major, width × height) of the path drawn up to
   * kept[0 .. drawCount), stamping what is still missing first. Only the pixels that differ from
   * the previous render's picture are rewritten (`changedRows` says where). The returned array is
   * reused.
   */
  render(drawCount: number): Uint8ClampedArray<ArrayBuffer> {
    if (!Number.isInteger(drawCount) || drawCount < 0) {
      throw new RangeError(`PathRaster.render: drawCount must be an integer ≥ 0, got ${drawCount}`);
    }
    const count = Math.min(drawCount, this.x.length);
    this.stampTo(count);
    const { first, look, colours, pixels, firstOrder, fullOrder, shown } = this;
    let low = pixels.length;
    let high = -1;
    if (count > shown) {
      // Newly touched pixels show their partial look, then the newly covered ones their full one.
      for (let k = firstOrder.start[shown]!; k < firstOrder.start[count]!; k++) {
        const p = firstOrder.order[k]!;
        pixels[p] = colours[look[p]!]!;
        if (p < low) low = p;
        if (p > high) high = p;
      }
      for (let k = fullOrder.start[shown]!; k < fullOrder.start[count]!; k++) {
        const p = fullOrder.order[k]!;
        pixels[p] = colours[look[p]! | 255]!;
        if (p < low) low = p;
        if (p > high) high = p;
      }
    } else if (count < shown) {
      // Undone in reverse: pixels no longer fully covered, then those no longer touched at all.
      for (let k = fullOrder.start[count]!; k < fullOrder.start[shown]!; k++) {
        const p = fullOrder.order[k]!;
        pixels[p] = first[p]! < count ? colours[look[p]!]! : 0;
        if (p < low) low = p;
        if (p > high) high = p;
      }
      for (let k = firstOrder.start[count]!; k < firstOrder.start[shown]!; k++) {
        const p = firstOrder.order[k]!;
        pixels[p] = 0;
        if (p < low) low = p;
        if (p > high) high = p;
      }
    }
    this.shown = count;
    const { width } = this;
    this.changed =
      high < 0
        ? { top: 0, bottom: 0 }
        : { top: Math.floor(low / width), bottom: Math.floor(high / width) + 1 };
    return new Uint8ClampedArray(this.pixels.buffer);
  }

  /** The rows the last render rewrote (empty when its picture was the one shown before). */
  get changedRows(): RowSpan {
    return this.changed;
  }
}
