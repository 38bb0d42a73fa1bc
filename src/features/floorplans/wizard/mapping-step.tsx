import { floorplanImageUrl } from '../../../api/get-floorplan-image.ts';
import { RecordActions, RecordField } from '../../../components/record-card.tsx';
import { localTime } from '../../../lib/record-time.ts';
import type { Floorplan, LineClearance, Tag } from '../../../types/api.ts';
import { PrintLabels } from '../labels/label-sheet.tsx';
import { wizardStrings as w } from '../strings.ts';

export interface MappingStepProps {
  line: LineClearance;
  floorplans: readonly Floorplan[];
  selectedId: string | null;
  editable: boolean;
  /** The tags of the line's saved configuration, whose labels the card prints. */
  savedTags: readonly Tag[];
  onSelect: (id: string) => void;
  onDelete: (floorplan: Floorplan) => void;
}

/**
 * Step 2: the line clearance and its floor-plan cards (image, created date, select, delete), and
 * the QR labels of the line's saved tags.
 */
export function MappingStep({
  line,
  floorplans,
  selectedId,
  editable,
  savedTags,
  ...props
}: MappingStepProps) {
  return (
    <>
      <p>
        <span className="muted">{w.lineClearance}:</span> <strong>{line.name}</strong>
      </p>
      {floorplans.length === 0 ? (
        <p className="notice">{w.noFloorplanForLine}</p>
      ) : (
        <div className="card-grid">
          {floorplans.map((floorplan) => {
            const selected = floorplan._id === selectedId;
            const cardName = `${floorplan.name} of ${line.name}`;
            const selectLabel = selected ? w.selected : w.select;
            return (
              <article
                key={floorplan._id}
                className={`card record-card floorplan-card${selected ? ' selected' : ''}`}
              >
                <header className="record-header">
                  <h3 className="wrap-anywhere">{floorplan.name}</h3>
                  {selected && <span className="tag tag-info">{w.selected}</span>}
                </header>
                <img
                  className="floorplan-thumbnail"
                  src={floorplanImageUrl(floorplan.imagePath)}
                  alt={`Floor plan of ${line.name}`}
                />
                <dl className="record-fields">
                  <RecordField label={w.created}>
                    {localTime(floorplan.createdAt) ?? floorplan.createdAt}
                  </RecordField>
                </dl>
                <footer className="card-actions">
                  <button
                    type="button"
                    className="btn btn-primary"
                    disabled={selected}
                    aria-label={`${selectLabel} ${cardName}`}
                    onClick={() => props.onSelect(floorplan._id)}
                  >
                    {selectLabel}
                  </button>
                  {savedTags.length > 0 && <PrintLabels lineName={line.name} tags={savedTags} />}
                  {editable && (
                    <RecordActions
                      name={cardName}
                      actions={[
                        {
                          label: w.delete,
                          variant: 'danger',
                          onClick: () => props.onDelete(floorplan),
                        },
                      ]}
                    />
                  )}
                </footer>
              </article>
            );
          })}
        </div>
      )}
    </>
  );
}
