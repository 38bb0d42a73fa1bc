import type { VideoDeletion } from '../../types/api.ts';
import { adminStrings } from './strings.ts';

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `deleted.reports` counts the inspections that were unlinked from the video, not removed: an
 * inspection is a GMP record and stays. Said apart from the removed items, so nobody reads it as
 * a destroyed record.
 */
function unlinkedReports(n: number): string {
  return n === 1
    ? '1 report unlinked (the inspection is kept)'
    : `${n} reports unlinked (the inspections are kept)`;
}

/**
 * Spec §8: 'Video deleted successfully.' then 'Deleted:' and every removed item; then the reports
 * that were unlinked.
 */
export function deletionSummary({ deleted }: VideoDeletion): string {
  const { minio } = deleted;
  const items = [
    count(deleted.video, 'video record', 'video records'),
    count(deleted.predictions, 'prediction', 'predictions'),
    count(deleted.floorplanConfigs, 'floorplan config', 'floorplan configs'),
    count(deleted.floorplans, 'floorplan', 'floorplans'),
    `video file ${minio.video ? 'removed' : 'not found'}`,
    `keyframes text ${minio.keyframesText ? 'removed' : 'not found'}`,
    count(minio.keyframesImages, 'keyframe image', 'keyframe images'),
    `results ${minio.results ? 'removed' : 'not found'}`,
  ];
  // The toast keeps line breaks: the summary reads as three lines.
  return [
    adminStrings.videoDeleted,
    `${adminStrings.deletedPrefix} ${items.join(', ')}.`,
    `${unlinkedReports(deleted.reports)}.`,
  ].join('\n');
}
