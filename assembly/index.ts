// The module's only export surface. Every function is flat (numbers and pointers in, numbers out)
// and never throws on input: results and status codes come back as numbers. JS rebuilds its
// memory views after any call that may allocate (alloc, parse*, names*, sort, thin, index, scan).

import { allocBytes, freeBytes } from './memory';

export * from './transform';

/** JS calls this to reserve a buffer (inputs it copies in, outputs it reads back). */
export function alloc(bytes: usize): usize {
  return allocBytes(bytes);
}

/** JS calls this to release a buffer from alloc or one whose ownership a *Take call handed over. */
export function free(ptr: usize): void {
  freeBytes(ptr);
}

export {
  /** JS calls this before the first chunk, with a guess of the point count (frees an untaken result). */
  parseBegin,
  /** JS calls this per chunk (80 spare bytes after len); returns bytes consumed, the rest is carried. */
  parseChunk,
  /** JS calls these after the final chunk to build the ParseReport. */
  parsePointCount,
  parseLineCount,
  parseBadLineCount,
  parseFirstBadLine,
  /** JS calls this for the column pointers (0 index, 1 x, 2 y, 3 t) after the final chunk. */
  parseColumn,
  /** JS calls this when it keeps the columns (loadPath): from then on JS frees them. */
  parseTake,
  /** JS calls this after copying a chunk's points out: the columns start again from point 0. */
  parseRewind,
  /** JS calls this before scanning a file for .png keyframe names, and after, to free the list. */
  namesReset,
  /** JS calls this per chunk like parseChunk; base is the chunk's offset in the whole file. */
  namesChunk,
  /** JS calls these after the final chunk: count, and u32 (start, end) offset pairs. */
  namesCount,
  namesPointer,
} from './keyframes';

export {
  /** JS calls this for the display scale of a known image size (spec §9). */
  displayScale,
  /** JS calls this to turn resident image-pixel columns into display pixels in place. */
  scaleColumns,
  /** JS calls this for min and max timestamps (written to out[0], out[1]). */
  timeRange,
  /** JS calls this in loadPath before sorting, to report whether the file was out of order. */
  isSortedByTime,
  /** JS calls this in loadPath: stable sort of the points by time. */
  sortByTime,
  /** JS calls this to thin a path (greedy from the first point); writes kept indices. */
  thinGreedy,
  /** JS calls these to copy the kept points out (f64 times, f32 display coordinates). */
  gatherF64,
  gatherF32,
  /** JS calls this at the end of loadPath to index the sorted times (it copies t, x and y). */
  timeIndexBuild,
  /** JS calls this when it drops the loaded path: frees the index. */
  timeIndexRelease,
  /** JS calls this per scrub query: the nearest point's position, −1 without points. */
  timeQuery,
  /** JS calls this once for where timeQuery leaves its answer (nearest t, x, y, position, count). */
  timeQueryResult,
} from './path';

export {
  /** JS calls this to start a tag scan: bins the tags, clears the flags (one byte per tag). */
  tagGridBuild,
  /** JS calls this per run of path points; returns how many tags are scanned so far. */
  tagGridScan,
  /** JS calls this when the scan is done, before freeing the tags and flags. */
  tagGridRelease,
} from './tag-scan';
