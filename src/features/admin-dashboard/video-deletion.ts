import type { VideoDeletion } from '../../types/api.ts';
import { adminStrings } from './strings.ts';

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Spec §8: 'Video deleted successfully.' then 'Deleted:' and every removed item. */
export function deletionSummary({ deleted }: VideoDeletion): string {
  const { minio } = deleted;
  const items = [
    count(deleted.video, 'video record', 'video records'),
    count(deleted.predictions, 'prediction', 'predictions'),
    count(deleted.reports, 'report', 'reports'),
    count(deleted.floorplanConfigs, 'floorplan config', 'floorplan configs'),
    count(deleted.floorplans, 'floorplan', 'floorplans'),
    `video file ${minio.video ? 'removed' : 'not found'}`,
    `keyframes text ${minio.keyframesText ? 'removed' : 'not found'}`,
    count(minio.keyframesImages, 'keyframe image', 'keyframe images'),
    `results ${minio.results ? 'removed' : 'not found'}`,
  ];
  // The toast keeps line breaks: the summary reads as two lines.
  return `${adminStrings.videoDeleted}\n${adminStrings.deletedPrefix} ${items.join(', ')}.`;
}
