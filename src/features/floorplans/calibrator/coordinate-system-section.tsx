import { useId } from 'react';
import { calibratorStrings as s } from '../strings.ts';
import { pixelsPerMeterRule } from './calibration.ts';
import { coverageMeters, type Size } from './geometry.ts';

export interface CoordinateSystemSectionProps {
  /** The image's own size (auto-detected when it loaded). */
  source: Size;
  /** What is typed in the field, which may be invalid for a moment. */
  pixelsPerMeterText: string;
  /** The valid value in effect. */
  pixelsPerMeter: number;
  onPixelsPerMeterText: (text: string) => void;
  invalid: boolean;
  readOnly: boolean;
}

/** Spec §2 'Path Coordinate System': image size, pixels per meter (§5, §9) and the area covered. */
export function CoordinateSystemSection(props: CoordinateSystemSectionProps) {
  const headingId = useId();
  const inputId = useId();
  const errorId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{s.pathCoordinateSystem}</h3>
      <dl className="record-fields">
        <div className="record-field">
          <dt>{s.originalImageSize}</dt>
          <dd>
            {s.pixels(props.source)} <span className="muted">{s.autoDetected}</span>
          </dd>
        </div>
        <div className="record-field">
          <dt>
            <label htmlFor={inputId}>{s.pixelsPerMeter}</label>
          </dt>
          <dd>
            <input
              id={inputId}
              type="number"
              min={pixelsPerMeterRule.min}
              max={pixelsPerMeterRule.max}
              step={pixelsPerMeterRule.step}
              value={props.pixelsPerMeterText}
              readOnly={props.readOnly}
              aria-invalid={props.invalid}
              aria-describedby={props.invalid ? errorId : undefined}
              onChange={(event) => props.onPixelsPerMeterText(event.target.value)}
            />
            {props.invalid && (
              <p id={errorId} className="field-error" role="alert">
                {s.pixelsPerMeterInvalid}
              </p>
            )}
          </dd>
        </div>
        <div className="record-field">
          <dt>{s.coverageArea}</dt>
          <dd>{s.coverage(coverageMeters(props.source, props.pixelsPerMeter))}</dd>
        </div>
      </dl>
    </section>
  );
}
