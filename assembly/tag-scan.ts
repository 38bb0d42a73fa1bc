// Tag scanning (spec §4): a tag is scanned when some path point lies within `radius` image pixels of
// it (the spec's "within 0.1, distance / 100" is radius 10). Tags go into a uniform grid whose cells
// are as wide as a tag's reach, so each path point looks at one cell's few tags: one pass over
// 10^7 points, ending early once every tag is scanned.

import { freeBytes } from './memory';

// Caps the grid (and its allocation) when tags are spread far apart: cells then grow instead.
const GRID_SIDE_LIMIT: f64 = 512;
// Tags are binned with a slightly larger reach so rounding at a cell edge never loses a point.
const REACH_MARGIN: f64 = 1.000001;

// @ts-ignore: decorator
@inline
function tagX(tags: usize, k: i32): f64 {
  return load<f64>(tags + (<usize>k << 4));
}

// @ts-ignore: decorator
@inline
function tagY(tags: usize, k: i32): f64 {
  return load<f64>(tags + (<usize>k << 4), 8);
}

// The grid of the current scan (one per instance), built by tagGridBuild. It borrows the tags and
// flags from JS, so a long path can be scanned in chunks and stop once every tag is scanned.
let gridTags: usize = 0;
let gridTagCount: i32 = 0;
let gridFlags: usize = 0;
let gridLimit: f64 = 0;
let gridMinX: f64 = 0;
let gridMinY: f64 = 0;
let gridPerCell: f64 = 0;
let gridColumns: i32 = 0;
let gridRows: i32 = 0;
let gridScanned: i32 = 0;
let cellStart: usize = 0; // u32 × (cells + 1): cellStart[c]..cellStart[c + 1] index into cellTags
let cellTags: usize = 0; // u32 tag indices

/**
 * Bins tagCount (x, y) f64 pairs (image pixels) for scanning within `radius`; clears `flags` (one
 * byte per tag, set to 1 when scanned). Tags and flags must outlive the grid.
 */
export function tagGridBuild(tags: usize, tagCount: i32, radius: f64, flags: usize): void {
  tagGridRelease();
  memory.fill(flags, 0, <usize>max(tagCount, 0));
  if (tagCount <= 0) return;
  gridTags = tags;
  gridTagCount = tagCount;
  gridFlags = flags;
  gridLimit = radius * radius;
  const reach = radius * REACH_MARGIN;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < tagCount; k++) {
    minX = min(minX, tagX(tags, k));
    maxX = max(maxX, tagX(tags, k));
    minY = min(minY, tagY(tags, k));
    maxY = max(maxY, tagY(tags, k));
  }
  minX -= reach;
  minY -= reach;
  const spanX = maxX + reach - minX;
  const spanY = maxY + reach - minY;
  const cell = max(2 * reach, max(spanX, spanY) / GRID_SIDE_LIMIT);
  const perCell = 1 / cell;
  // Saturating conversions: a span too large for f64 gives one cell holding every tag, not a trap.
  const columns = max(1, <i32>min(floor(spanX * perCell) + 1, GRID_SIDE_LIMIT + 1));
  const rows = max(1, <i32>min(floor(spanY * perCell) + 1, GRID_SIDE_LIMIT + 1));
  const cells = columns * rows;
  gridMinX = minX;
  gridMinY = minY;
  gridPerCell = perCell;
  gridColumns = columns;
  gridRows = rows;

  cellStart = heap.alloc(<usize>(cells + 1) << 2);
  memory.fill(cellStart, 0, <usize>(cells + 1) << 2);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < tagCount; k++) {
      const x0 = clampCell((tagX(tags, k) - reach - minX) * perCell, columns);
      const x1 = clampCell((tagX(tags, k) + reach - minX) * perCell, columns);
      const y0 = clampCell((tagY(tags, k) - reach - minY) * perCell, rows);
      const y1 = clampCell((tagY(tags, k) + reach - minY) * perCell, rows);
      for (let cy = y0; cy <= y1; cy++) {
        for (let cx = x0; cx <= x1; cx++) {
          const slot = cellStart + (<usize>(cy * columns + cx) << 2);
          if (pass == 0) {
            store<u32>(slot, load<u32>(slot) + 1);
          } else {
            // Second pass: cellStart[c] holds the end of c's list; fill backwards to its start.
            const at = load<u32>(slot) - 1;
            store<u32>(slot, at);
            store<u32>(cellTags + (<usize>at << 2), k);
          }
        }
      }
    }
    if (pass == 0) {
      let total: u32 = 0;
      for (let c = 0; c <= cells; c++) {
        const slot = cellStart + (<usize>c << 2);
        total += load<u32>(slot);
        store<u32>(slot, total);
      }
      cellTags = heap.alloc(<usize>total << 2);
    }
  }
}

/**
 * Scans n more path points (image pixels) against the grid; returns how many tags are scanned so
 * far. Stops as soon as every tag is. Distances compare squared: dx² + dy² ≤ radius².
 */
export function tagGridScan(xPtr: usize, yPtr: usize, n: i32): i32 {
  const tags = gridTags;
  const tagCount = gridTagCount;
  const flags = gridFlags;
  const limit = gridLimit;
  const minX = gridMinX;
  const minY = gridMinY;
  const perCell = gridPerCell;
  const columns = gridColumns;
  const columnsF = <f64>columns;
  const rowsF = <f64>gridRows;
  let scanned = gridScanned;
  for (let i = 0; i < n && scanned < tagCount; i++) {
    const x = load<f64>(xPtr + (<usize>i << 3));
    const y = load<f64>(yPtr + (<usize>i << 3));
    const fx = (x - minX) * perCell;
    const fy = (y - minY) * perCell;
    if (!(fx >= 0 && fx < columnsF && fy >= 0 && fy < rowsF)) continue;
    const c = <i32>fy * columns + <i32>fx;
    const start = load<u32>(cellStart + (<usize>c << 2));
    const end = load<u32>(cellStart + (<usize>(c + 1) << 2));
    for (let s = start; s < end; s++) {
      const k = load<i32>(cellTags + (<usize>s << 2));
      if (load<u8>(flags + <usize>k) != 0) continue;
      const dx = x - tagX(tags, k);
      const dy = y - tagY(tags, k);
      if (dx * dx + dy * dy <= limit) {
        store<u8>(flags + <usize>k, 1);
        scanned++;
      }
    }
  }
  gridScanned = scanned;
  return scanned;
}

/** Frees the grid (it never frees the borrowed tags and flags). */
export function tagGridRelease(): void {
  freeBytes(cellStart);
  freeBytes(cellTags);
  cellStart = 0;
  cellTags = 0;
  gridTags = 0;
  gridTagCount = 0;
  gridFlags = 0;
  gridScanned = 0;
}

// @ts-ignore: decorator
@inline
function clampCell(f: f64, count: i32): i32 {
  const c = <i32>f;
  return c < 0 ? 0 : c >= count ? count - 1 : c;
}
