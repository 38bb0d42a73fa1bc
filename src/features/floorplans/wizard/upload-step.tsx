import { type FormEvent, useId, useState } from 'react';
import type { UploadProgress } from '../../../lib/api-client.ts';
import { localTime } from '../../../lib/record-time.ts';
import type { Floorplan, LineClearance } from '../../../types/api.ts';
import { uploadFloorplan } from '../api/upload-floorplan.ts';
import { wizardStrings as w } from '../strings.ts';
import { alertFailure } from './failure-alert.ts';
import type { Floorplans } from './use-floorplans.ts';

/** Spec §2/§5: the image formats the file input offers. */
const acceptedImages = 'image/png,image/jpeg,image/gif,.png,.jpg,.jpeg,.gif';

export interface UploadStepProps {
  lines: readonly LineClearance[] | null;
  floorplans: Floorplans;
  lineId: string;
  onLineChange: (lineId: string) => void;
  canChange: (line: LineClearance) => boolean;
  /** Puts `upload` off until the user agrees to lose work not saved, if any. */
  beforeUpload: (upload: () => void) => void;
  onUploaded: (floorplan: Floorplan) => void;
  onContinue: (lineId: string) => void;
}

/** Step 1: choose a line clearance and upload (or replace) its floor plan image. */
export function UploadStep(props: UploadStepProps) {
  const { lines, floorplans, lineId } = props;
  const lineFieldId = useId();
  const fileFieldId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const line = lines?.find((candidate) => candidate._id === lineId) ?? null;
  const existing = floorplans.list?.find((floorplan) => floorplan.lineID === lineId) ?? null;
  // With no line chosen yet, the form shows for anyone who may upload for some line; null while
  // the lines load.
  const editable = lines && (line ? props.canChange(line) : lines.some(props.canChange));
  const busy = progress !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !line) {
      window.alert(w.selectFileAndLine);
      return;
    }
    props.beforeUpload(() => void upload(file, line));
  };

  const upload = async (image: File, to: LineClearance) => {
    setProgress({ loaded: 0, total: image.size });
    try {
      const floorplan = await uploadFloorplan(image, to._id, setProgress);
      window.alert(w.uploaded);
      props.onUploaded(floorplan);
    } catch (error) {
      alertFailure(w.uploadFailed, error);
    } finally {
      setProgress(null);
    }
  };

  const lineName = (id: string) =>
    lines?.find((candidate) => candidate._id === id)?.name ?? w.unknownLine;
  const percent =
    progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <>
      <form className="form card" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor={lineFieldId}>
            {w.lineClearance}
          </label>
          <select
            id={lineFieldId}
            value={lineId}
            onChange={(event) => props.onLineChange(event.target.value)}
          >
            <option value="">{w.selectLineClearance}</option>
            {(lines ?? []).map((candidate) => (
              <option key={candidate._id} value={candidate._id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </div>
        {line && existing && (
          <div className="notice" role="status">
            <p>
              {(editable ? w.alreadyHasFloorplan : w.hasFloorplan)(
                line.name,
                localTime(existing.createdAt) ?? existing.createdAt,
              )}
            </p>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => props.onContinue(line._id)}
            >
              {w.continueToConfiguration}
            </button>
          </div>
        )}
        {lines?.length === 0 ? (
          // A new system: not a matter of rights, there is nothing to upload a plan for yet.
          <p className="notice">{w.noLines}</p>
        ) : editable ? (
          <>
            <div className="field">
              <label className="field-label" htmlFor={fileFieldId}>
                {w.image}
              </label>
              <input
                id={fileFieldId}
                type="file"
                accept={acceptedImages}
                aria-describedby={`${fileFieldId}-hint`}
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
              <p id={`${fileFieldId}-hint`} className="field-hint">
                {w.imageLimit}
              </p>
            </div>
            {progress && (
              <div className="upload-progress">
                <progress
                  value={progress.loaded}
                  max={Math.max(progress.total, 1)}
                  aria-label={w.uploadProgress}
                />
                <span role="status">{w.uploading(percent)}</span>
              </div>
            )}
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {existing ? w.replace : w.upload}
              </button>
            </div>
          </>
        ) : (
          editable === false && <p className="notice">{w.readOnly}</p>
        )}
      </form>
      <section className="card" aria-labelledby={`${lineFieldId}-list`}>
        <h3 id={`${lineFieldId}-list`}>{w.existingFloorplans}</h3>
        {floorplans.list === null && !floorplans.failed && (
          <p className="muted" role="status">
            {w.loading}
          </p>
        )}
        {floorplans.list?.length === 0 && (
          <div className="empty-state">
            <p className="empty-state-title">{w.noFloorplans}</p>
            <p className="muted">{w.noFloorplansHint}</p>
          </div>
        )}
        {floorplans.list && floorplans.list.length > 0 && (
          <ul className="floorplan-list">
            {floorplans.list.map((floorplan) => (
              <li key={floorplan._id}>
                <span>
                  <strong>{lineName(floorplan.lineID)}</strong>{' '}
                  <span className="muted">
                    {w.created} {localTime(floorplan.createdAt) ?? floorplan.createdAt}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={`${w.configure} ${lineName(floorplan.lineID)}`}
                  onClick={() => props.onContinue(floorplan.lineID)}
                >
                  {w.configure}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
