import { useState } from 'react';
import { AppDialog } from '../../components/app-dialog.tsx';
import { aboveThreshold, boxConfidence, type Detection } from './detections.ts';
import { currentImageIndex, type KeyframeImage, keyframeImageUrl } from './keyframe-images.ts';
import { videoStrings as s } from './strings.ts';

/** The keyframe the modal shows. */
export interface KeyframeFrame {
  time: number;
  /** The image file (`12.500.png`); null when the keyframes file names no image. */
  name: string | null;
  subfolder: string;
}

export interface KeyframeModalProps {
  frame: KeyframeFrame | null;
  /** The frame's prediction as recorded (null: the frame has none). */
  detection: Detection | null;
  /** Confidence threshold 0..1: boxes below it are not drawn. */
  threshold: number;
  /** The video's keyframe images, to say which of them the frame is (null while unread). */
  images: readonly KeyframeImage[] | null;
  onClose(): void;
}

export function frameStamp(frame: KeyframeFrame): string {
  return frame.name ? frame.name.replace(/\.png$/i, '') : frame.time.toFixed(3);
}

/**
 * Spec §2 keyframe image modal: the image with its bounding boxes (label and confidence with 1
 * decimal), 'No detections for this frame' without a prediction; Close or a backdrop click closes.
 */
export function KeyframeModal({
  frame,
  detection,
  threshold,
  images,
  onClose,
}: KeyframeModalProps) {
  const shown = detection ? (aboveThreshold([detection], threshold)[0] ?? null) : null;
  const stamp = frame ? frameStamp(frame) : '';
  const index = frame && images ? currentImageIndex(images, frame.time) : -1;
  return (
    <AppDialog
      open={frame !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`${s.keyframeImage} at ${stamp} s`}
      width="min(90vw, 760px)"
      closeLabel={s.closeKeyframe}
    >
      {frame && (
        <div className="va-keyframe">
          {frame.name ? (
            <KeyframePicture
              key={`${frame.subfolder}/${frame.name}`}
              src={keyframeImageUrl(frame.subfolder, frame.name)}
              alt={`${s.keyframeImage} at ${stamp} s`}
              detection={shown}
            />
          ) : (
            <p className="muted">{s.noKeyframeImage}</p>
          )}
          {!detection && <p className="va-no-detections">{s.noDetectionsForFrame}</p>}
          {detection && !shown && (
            <p className="va-no-detections">
              No detections at or above {Math.round(threshold * 100)}% confidence
            </p>
          )}
          {shown && (
            <ul className="va-keyframe-objects">
              {shown.objects.map((object, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: objects of one frame never reorder.
                <li key={index}>
                  {object.label} {boxConfidence(object.confidence)}
                </li>
              ))}
            </ul>
          )}
          {/* Polite: ← and → change the frame without moving the focus. */}
          <p className="muted" role="status">
            {images && index >= 0 ? s.keyframeOf(index + 1, images.length) : ''}
          </p>
          <p className="muted va-keyframe-hint">
            ← / → previous or next keyframe image · N / P next or previous detection
          </p>
          <div className="form-actions">
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              {s.close}
            </button>
          </div>
        </div>
      )}
    </AppDialog>
  );
}

interface KeyframePictureProps {
  src: string;
  alt: string;
  detection: Detection | null;
}

/** Where a box sits over the image, in percent of its size (boxes are image fractions). */
export function boxStyle([x1, y1, x2, y2]: readonly [number, number, number, number]) {
  return {
    left: `${x1 * 100}%`,
    top: `${y1 * 100}%`,
    width: `${(x2 - x1) * 100}%`,
    height: `${(y2 - y1) * 100}%`,
  };
}

/**
 * The image with the boxes drawn over it; they scale with it. If the image fails, its alt text
 * stays in its place with a message, and no boxes are drawn over nothing.
 */
function KeyframePicture({ src, alt, detection }: KeyframePictureProps) {
  const [failed, setFailed] = useState(false);
  return (
    <figure className="va-frame">
      <img
        src={src}
        alt={alt}
        onError={() => {
          console.error('Keyframe image failed to load', src);
          setFailed(true);
        }}
      />
      {failed && <figcaption className="muted">{s.keyframeImageFailed}</figcaption>}
      {!failed &&
        detection?.objects.map((object, index) =>
          object.box ? (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: objects of one frame never reorder.
              key={index}
              className="va-box"
              style={boxStyle(object.box)}
              aria-hidden="true"
            >
              <span className="va-box-label">
                {object.label} {boxConfidence(object.confidence)}
              </span>
            </div>
          ) : null,
        )}
    </figure>
  );
}
