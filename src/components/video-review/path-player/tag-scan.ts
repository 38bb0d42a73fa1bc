// Which of the player's tags count as scanned, and how. The path's own scan (spec §4, worked out in
// the path worker) is all the video analysis page counts (spec §2). The inspection report also
// knows the tags whose QR code the phone read during the recording, and its checklist counts both
// (docs/reports.md): given those, the player counts them too, so a signer reads one answer a tag.

import type { PathTag } from '../../../../workers/floor-plan-scene.ts';
import type { FloorplanConfiguration } from '../../../types/api.ts';

/** A tag whose QR code was read during the recording, as the report's checklist names it. */
export interface QrScannedTag {
  /** Its position in the line's configuration tags (the checklist's `index`). */
  index: number;
  name: string;
  qrCode: string | null;
}

/** How a tag was scanned: by the path passing it, by its QR code, or both. */
export type ScanSource = 'path' | 'qr' | 'both';

export interface TagScan {
  /** Indices into the player's tags counted as scanned. */
  scanned: ReadonlySet<number>;
  /** How each scanned tag was; null when the QR scans are not given (the path alone counts). */
  sources: ReadonlyMap<number, ScanSource> | null;
  /** QR-scanned tags not found among the plan's tags (the plan changed since): not counted. */
  unmatched: QrScannedTag[];
}

const sameCode = (a: string | null | undefined, b: string | null | undefined) =>
  (a?.trim() || null) === (b?.trim() || null);

/**
 * The scan the player shows. A QR-scanned tag counts for the plan's tag at the same position in
 * the configuration only if it has the same name and code: the checklist numbers the line's tags
 * as they were when the inspection began, the player shows the plan as it is now (or as it was
 * signed), and a tag added, removed or renamed since must not lend its scan to another one.
 */
export function tagScan(
  pathIndices: readonly number[],
  tags: readonly PathTag[],
  configuration: FloorplanConfiguration | null,
  qrScanned: readonly QrScannedTag[] | undefined,
): TagScan {
  const byPath = new Set(pathIndices);
  if (qrScanned === undefined) return { scanned: byPath, sources: null, unmatched: [] };
  // `tags` holds the configuration's own tag objects (tagsOf drops those without a position).
  const configured = Array.isArray(configuration?.tags) ? configuration.tags : [];
  const position = new Map(configured.map((tag, at) => [tag, at]));
  const playerIndex = new Map<number, number>();
  tags.forEach((tag, i) => {
    const at = position.get(tag);
    if (at !== undefined) playerIndex.set(at, i);
  });
  const byQr = new Set<number>();
  const unmatched: QrScannedTag[] = [];
  for (const scannedTag of qrScanned) {
    const i = playerIndex.get(scannedTag.index);
    const tag = i === undefined ? undefined : tags[i];
    if (i !== undefined && tag?.name === scannedTag.name && sameCode(tag.qrCode, scannedTag.qrCode))
      byQr.add(i);
    else unmatched.push(scannedTag);
  }
  const sources = new Map<number, ScanSource>();
  for (const i of byPath) sources.set(i, byQr.has(i) ? 'both' : 'path');
  for (const i of byQr) if (!byPath.has(i)) sources.set(i, 'qr');
  return { scanned: new Set(sources.keys()), sources, unmatched };
}
