// A uniform grid over the thinned path's points for hit testing: a click looks at the few cells
// around it instead of every point (a long inspection keeps 10^5–10^6 points). Built once per load
// in the path worker; no DOM.

// Enough cells for a fine grid over any floor plan without letting a far-flung point blow it up.
const MAX_CELLS = 1 << 20;

export class PointGrid {
  private readonly originX: number;
  private readonly originY: number;
  private readonly cell: number;
  private readonly columns: number;
  private readonly rows: number;
  /** Cell c holds items[starts[c] .. starts[c + 1]), point indices in ascending order. */
  private readonly starts: Int32Array;
  private readonly items: Int32Array;

  constructor(
    private readonly x: Float32Array,
    private readonly y: Float32Array,
    cellSize: number,
  ) {
    if (x.length !== y.length) {
      throw new RangeError(`PointGrid: x and y differ in length (${x.length} vs ${y.length})`);
    }
    if (!(Number.isFinite(cellSize) && cellSize > 0)) {
      throw new RangeError(`PointGrid: cellSize must be a positive finite number, got ${cellSize}`);
    }
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < x.length; i++) {
      const px = x[i]!;
      const py = y[i]!;
      if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
      minX = Math.min(minX, px);
      minY = Math.min(minY, py);
      maxX = Math.max(maxX, px);
      maxY = Math.max(maxY, py);
    }
    if (minX > maxX) minX = minY = maxX = maxY = 0;
    let cell = cellSize;
    while (((maxX - minX) / cell + 1) * ((maxY - minY) / cell + 1) > MAX_CELLS) cell *= 2;
    this.cell = cell;
    this.originX = minX;
    this.originY = minY;
    this.columns = Math.floor((maxX - minX) / cell) + 1;
    this.rows = Math.floor((maxY - minY) / cell) + 1;

    const cellOf = new Int32Array(x.length);
    const starts = new Int32Array(this.columns * this.rows + 1);
    for (let i = 0; i < x.length; i++) {
      const c = this.cellAt(x[i]!, y[i]!);
      cellOf[i] = c;
      if (c >= 0) starts[c + 1]!++;
    }
    for (let c = 1; c < starts.length; c++) starts[c]! += starts[c - 1]!;
    const items = new Int32Array(starts[starts.length - 1]!);
    const next = starts.slice(0, -1);
    for (let i = 0; i < x.length; i++) {
      const c = cellOf[i]!;
      if (c >= 0) items[next[c]!++] = i;
    }
    this.starts = starts;
    this.items = items;
  }

  private cellAt(px: number, py: number): number {
    if (!Number.isFinite(px) || !Number.isFinite(py)) return -1;
    const column = Math.floor((px - this.originX) / this.cell);
    const row = Math.floor((py - this.originY) / this.cell);
    return row * this.columns + column;
  }

  /**
   * The point with index below `limit` nearest to (px, py) and at most `radius` away; among
   * equally near points the earliest (it is drawn on top). −1 when there is none.
   */
  nearest(px: number, py: number, radius: number, limit: number): number {
    if (![px, py, radius, limit].every(Number.isFinite) || radius < 0) {
      throw new RangeError(
        `PointGrid.nearest: px, py, radius and limit must be finite and radius ≥ 0, got ${px}, ${py}, ${radius}, ${limit}`,
      );
    }
    const { x, y, cell, columns, rows, starts, items } = this;
    const columnFrom = Math.max(0, Math.floor((px - radius - this.originX) / cell));
    const columnTo = Math.min(columns - 1, Math.floor((px + radius - this.originX) / cell));
    const rowFrom = Math.max(0, Math.floor((py - radius - this.originY) / cell));
    const rowTo = Math.min(rows - 1, Math.floor((py + radius - this.originY) / cell));
    let best = -1;
    let bestDistance = radius * radius;
    for (let row = rowFrom; row <= rowTo; row++) {
      for (let column = columnFrom; column <= columnTo; column++) {
        const c = row * columns + column;
        for (let k = starts[c]!; k < starts[c + 1]!; k++) {
          const i = items[k]!;
          // Indices ascend within a cell: the rest of this cell is not drawn yet.
          if (i >= limit) break;
          const distance = (x[i]! - px) ** 2 + (y[i]! - py) ** 2;
          if (distance < bestDistance || (distance === bestDistance && (best < 0 || i < best))) {
            best = i;
            bestDistance = distance;
          }
        }
      }
    }
    return best;
  }
}
