import { formatDuration } from '../lib/format-duration.ts';
import { formatSize } from '../lib/format-size.ts';

export interface UploadProgressValue {
  sent: number;
  total: number;
  bytesPerSecond: number | null;
  secondsLeft: number | null;
}

/** An upload's progress: a bar, bytes sent of total, speed and time left (when known). */
export function UploadProgressBar({
  label,
  progress,
}: {
  label: string;
  progress: UploadProgressValue;
}) {
  const { sent, total, bytesPerSecond, secondsLeft } = progress;
  const details = [`${formatSize(sent)} of ${formatSize(total)}`];
  // A stalled upload has no speed to show, and so no time left: never '0 Bytes/s'.
  const speed = Math.round(bytesPerSecond ?? 0);
  if (speed > 0) details.push(`${formatSize(speed)}/s`);
  if (speed > 0 && secondsLeft !== null) details.push(`${formatDuration(secondsLeft)} left`);
  return (
    <div className="upload-progress">
      <progress max={total || 1} value={sent} aria-label={`Upload of ${label}`} />
      <p className="muted">{details.join(' · ')}</p>
    </div>
  );
}
