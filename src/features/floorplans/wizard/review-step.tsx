import type { ReactNode } from 'react';
import { RecordField } from '../../../components/record-card.tsx';
import { localTime } from '../../../lib/record-time.ts';
import type { Floorplan, FloorplanConfiguration, LineClearance, Tag } from '../../../types/api.ts';
import { PrintLabels } from '../labels/label-sheet.tsx';
import { TagCodeNotice } from '../labels/tag-code-notice.tsx';
import { unsavedCodes } from '../labels/tag-codes.ts';
import { wizardStrings as w } from '../strings.ts';

export interface ReviewStepProps {
  line: LineClearance | null;
  floorplan: Floorplan | null;
  configuration: FloorplanConfiguration | null;
  editable: boolean;
  saving: boolean;
  /** Why this configuration cannot be saved as it is, and the way on; Save is then not offered. */
  problem?: ReactNode;
  /** 'Reason for change', when the save replaces a saved configuration (null: a first save). */
  reasonField?: ReactNode;
  /** The line's saved tags (null: none saved), to tell labels whose codes are not saved yet. */
  savedTags: readonly Tag[] | null;
  onExport: () => void;
  onSave: () => void;
  /** Gives the tags without a QR code a default one; answers their names. */
  onGiveCodes: () => string[];
}

/**
 * Step 4: what will be saved (spec §2 summary), the tags a phone cannot scan, Export Config,
 * Print QR labels and Save Configuration.
 */
export function ReviewStep({ line, floorplan, configuration, ...props }: ReviewStepProps) {
  const tags = configuration?.tags ?? [];
  return (
    <>
      <section className="card review-summary" aria-label={w.summary}>
        <dl className="record-fields">
          <RecordField label={w.lineClearance}>{line?.name ?? '—'}</RecordField>
          <RecordField label={w.floorplan}>
            {floorplan
              ? `${floorplan.name} (${localTime(floorplan.createdAt) ?? floorplan.createdAt})`
              : '—'}
          </RecordField>
          <RecordField label={w.hotZoneCount}>{configuration?.hotZones.length ?? 0}</RecordField>
          <RecordField label={w.tagCount}>{configuration?.tags.length ?? 0}</RecordField>
          <RecordField label={w.cameraCount}>{configuration?.cameras.length ?? 0}</RecordField>
          <RecordField label={w.pixelsPerMeter}>
            {configuration?.coordinateSystem.pixelsPerMeter ?? '—'}
          </RecordField>
        </dl>
      </section>
      <TagCodeNotice tags={tags} onGiveCodes={props.editable ? props.onGiveCodes : undefined} />
      {!props.editable && <p className="notice">{w.readOnly}</p>}
      {props.editable && props.reasonField}
      {props.problem}
      <div className="actions">
        <button type="button" className="btn btn-secondary" onClick={props.onExport}>
          {w.exportConfig}
        </button>
        {tags.length > 0 && (
          <PrintLabels
            lineName={line?.name ?? w.unknownLine}
            tags={tags}
            unsaved={unsavedCodes(tags, props.savedTags).length}
          />
        )}
        {props.editable && !props.problem && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={props.saving}
            onClick={props.onSave}
          >
            {props.saving ? w.saving : w.saveConfiguration}
          </button>
        )}
      </div>
    </>
  );
}
