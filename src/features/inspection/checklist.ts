// How a decoded QR code counts against the inspection's checklist: one of this line's tags
// (first scan ticks it, later scans are kept as evidence but not counted again), another line's
// tag, or an unknown code. Both of the last two warn without stopping the recording.

import { MIN_PATH_ANCHORS } from '../../../workers/path-reconstruction.ts';
import type { ChecklistSnapshot, MyLineDetail } from '../../types/api.ts';

export type ScanVerdict =
  | { kind: 'checkpoint'; tagIndex: number; name: string; repeat: boolean }
  | { kind: 'other-line'; lineName: string }
  | { kind: 'unknown' };

export function judgeScan(
  code: string,
  checklist: ChecklistSnapshot,
  otherLineTags: MyLineDetail['otherLineTags'],
  ticked: ReadonlySet<number>,
): ScanVerdict {
  const wanted = code.trim();
  const tag = checklist.tags.find((t) => t.qrCode?.trim() === wanted);
  if (tag) {
    return {
      kind: 'checkpoint',
      tagIndex: tag.index,
      name: tag.name,
      repeat: ticked.has(tag.index),
    };
  }
  const other = otherLineTags.find((t) => t.qrCode.trim() === wanted);
  return other ? { kind: 'other-line', lineName: other.lineName } : { kind: 'unknown' };
}

/** Checkpoints that can be scanned: tags with a QR code. */
export const scannableTags = (checklist: ChecklistSnapshot) =>
  checklist.tags.filter((tag) => tag.qrCode?.trim());

/**
 * The analysis draws the operator's path only from scans of at least this many different
 * checkpoints: with fewer scans of tags it places no path at all, and scans of one tag pin it to
 * a single spot (docs/analysis.md "Fewer than two anchors").
 */
export const MIN_PATH_CHECKPOINTS = MIN_PATH_ANCHORS;

/**
 * Whether to warn that the analysis cannot draw the path: the line has enough checkpoints for one
 * (with fewer, recording again would not help) but fewer of them were scanned.
 */
export const pathAtRisk = (checkpoints: number, scanned: number) =>
  checkpoints >= MIN_PATH_CHECKPOINTS && scanned < MIN_PATH_CHECKPOINTS;
