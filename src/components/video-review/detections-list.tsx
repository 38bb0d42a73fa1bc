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
   * A landmark region of its own (the main list). The sidebar's copy sits in an aside that is
   * already one: two regions with the same name would confuse landmark navigation.
   */
  region?: boolean;
}

/**
 * Spec §2 Detections list: per keyframe with detections, its time (the file name's timestamp), its
 * first class label and that confidence (0 decimals); a click opens the keyframe image.
 */
export const DetectionsList = memo(function DetectionsList(props: DetectionsListProps) {
  const { title, detections, selectedId, onOpen, onHover, region = true } = props;
  const headingId = useId();
  const Container = region ? 'section' : 'div';
  return (
    <Container className="va-detections" aria-labelledby={region ? headingId : undefined}>
      <h2 id={headingId}>
        {title} <span className="muted">({detections.length})</span>
      </h2>
      {detections.length === 0 ? (
        <p className="muted">{s.noDetections}</p>
      ) : (
        <ul className="va-detection-list">
          {detections.map((detection) => {
            const { label, confidence } = detectionSummary(detection);
            const selected = detection.id === selectedId;
            return (
              <li key={detection.id}>
                <button
                  type="button"
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
