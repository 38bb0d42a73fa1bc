import type { PathTag } from '../../../../workers/floor-plan-scene.ts';
import type { PathPlayerLoad } from './load-path-player.ts';

/** Spec §4: the window event reporting which tags the path scanned. */
export const TAG_SCANNING_EVENT = 'tag-scanning-update';

export interface TagScanningDetail {
  scannedCount: number;
  totalCount: number;
  /** Indices into `tags`, ascending. */
  scannedIndices: number[];
  tags: PathTag[];
}

declare global {
  interface WindowEventMap {
    [TAG_SCANNING_EVENT]: CustomEvent<TagScanningDetail>;
  }
}

/** The scan of a load: its path's scan, or nothing scanned when no path loaded. */
export function tagScanningDetail(load: Pick<PathPlayerLoad, 'path' | 'tags'>): TagScanningDetail {
  const indices = load.path?.scan.indices ?? [];
  return {
    scannedCount: indices.length,
    totalCount: load.tags.length,
    scannedIndices: [...indices],
    tags: load.tags,
  };
}

function sameScan(a: TagScanningDetail, b: TagScanningDetail): boolean {
  return (
    a.scannedCount === b.scannedCount &&
    a.totalCount === b.totalCount &&
    a.scannedIndices.every((index, i) => b.scannedIndices[i] === index) &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags)
  );
}

/**
 * Dispatches the event when the scan differs from the one reported last (`previous`, null at
 * first): a changed count, or the same count of other tags (another line's floor plan), so a
 * listener never keeps a stale tag list. Returns the scan now reported.
 */
export function dispatchTagScanning(
  load: Pick<PathPlayerLoad, 'path' | 'tags'>,
  previous: TagScanningDetail | null,
): TagScanningDetail {
  const detail = tagScanningDetail(load);
  if (previous !== null && sameScan(previous, detail)) return previous;
  window.dispatchEvent(new CustomEvent(TAG_SCANNING_EVENT, { detail }));
  return detail;
}
