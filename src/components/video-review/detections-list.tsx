import { memo, useId } from 'react';
import { type Detection, detectionSummary } from './detections.ts';
import { videoStrings as s } from './strings.ts';

export interface DetectionsListProps {
  title: string;
  detections: readonly Detection[];
  /** The detection reached by N / P or opened last: highlighted here and on the path. */
  selectedId: string | null;
  onOpen(detection: Detection): void;
  /** Pointer or focus on an item (null when it leaves): its time is highlighted on the path. */
  onHover(detection: Detection | null): void;
  /**
   * The sidebar's copy of the main list. It sits in an aside that is already a landmark, so it is
   * no region of its own (two with the same name would confuse landmark navigation), and its
   * buttons are out of the Tab order (a click still opens): the main list has the same ones, and
   * Tab would otherwise pass every detection twice on the way to what follows. The list itself
   * is one Tab stop, so that it can be scrolled from the keyboard.
   */
  copy?: boolean;
  /** Said instead of 'No detections' when that would read as a clean result (no detector looked). */
  emptyNote?: string | null;
}

/**
 * Spec §2 Detections list: per keyframe with detections, its time (the file name's timestamp), its
 * first class label and that confidence (0 decimals); a click opens the keyframe image.
 */
export const DetectionsList = memo(function DetectionsList(props: DetectionsListProps) {
  const { title, detections, selectedId, onOpen, onHover, copy = false, emptyNote } = props;
  const headingId = useId();
  const Container = copy ? 'div' : 'section';
  return (
    <Container className="va-detections" aria-labelledby={copy ? undefined : headingId}>
      <h2 id={headingId}>
        {title} <span className="muted">({detections.length})</span>
      </h2>
      {detections.length === 0 ? (
        <p className={emptyNote ? 'report-warning' : 'muted'}>
          {emptyNote ? `${emptyNote}.` : s.noDetections}
        </p>
      ) : (
        // The copy's list is one Tab stop of its own, so the keyboard can scroll it (arrows).
        <ul
          className="va-detection-list"
          tabIndex={copy ? 0 : undefined}
          aria-label={copy ? title : undefined}
        >
          {detections.map((detection) => {
            const { label, confidence } = detectionSummary(detection);
            const selected = detection.id === selectedId;
            return (
              <li key={detection.id}>
                <button
                  type="button"
                  tabIndex={copy ? -1 : undefined}
                  className={`va-detection${selected ? ' selected' : ''}`}
                  aria-current={selected ? 'true' : undefined}
                  data-detection-id={detection.id}
                  onClick={() => onOpen(detection)}
                  onPointerEnter={() => onHover(detection)}
                  onPointerLeave={() => onHover(null)}
                  onFocus={() => onHover(detection)}
                  onBlur={() => onHover(null)}
                >
                  <span className="va-detection-time">{detection.stamp} s</span>
                  <span className="va-detection-label">{label}</span>
                  <span className="va-detection-confidence">{confidence}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Container>
  );
});
