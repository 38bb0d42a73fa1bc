import { useId, useRef } from 'react';
import { calibratorStrings as s } from '../strings.ts';
import { type Calibration, type ItemKind, itemsOf } from './calibration.ts';

export interface ItemListsProps {
  calibration: Calibration;
  readOnly: boolean;
  onEdit: (kind: ItemKind, key: string) => void;
  onRemove: (kind: ItemKind, key: string) => void;
  onClearAll: () => void;
}

const sections: readonly { kind: ItemKind; title: string }[] = [
  { kind: 'tag', title: s.tags },
  { kind: 'hotZone', title: s.hotZones },
  { kind: 'camera', title: s.cameras },
];

function ItemList({ kind, title, ...props }: ItemListsProps & { kind: ItemKind; title: string }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const items = itemsOf(props.calibration, kind);
  return (
    <section className="card calibrator-list" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {title} ({items.length})
      </h3>
      {items.length === 0 ? (
        <p className="muted">{s.noneYet}</p>
      ) : (
        <ul>
          {items.map(({ key, value }) => (
            <li key={key} className="calibrator-list-item">
              <span
                className="swatch"
                style={{ background: value.color ?? 'transparent' }}
                aria-hidden="true"
              />
              <span className="calibrator-list-name">
                {/* Isolated: a right-to-left name (or a control saved before they were refused)
                    must not reorder the position after it. */}
                <bdi>{value.name}</bdi>
                <span className="muted"> ({s.at(value.x, value.y)})</span>
              </span>
              {!props.readOnly && (
                <span className="actions">
                  <button
                    type="button"
                    className="btn btn-secondary"
                    aria-label={`${s.edit} ${value.name}`}
                    onClick={() => props.onEdit(kind, key)}
                  >
                    {s.edit}
                  </button>
                  <button
                    type="button"
                    className="btn btn-danger"
                    aria-label={`${s.remove} ${value.name}`}
                    onClick={() => {
                      props.onRemove(kind, key);
                      // The button is gone with its item: keep the keyboard in this list.
                      heading.current?.focus();
                    }}
                  >
                    {s.remove}
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The tags, hot zones and static cameras placed so far, each with Edit and Remove; Clear All. */
export function ItemLists(props: ItemListsProps) {
  const { calibration } = props;
  const empty =
    calibration.tags.length + calibration.hotZones.length + calibration.cameras.length === 0;
  return (
    <div className="calibrator-lists">
      {!props.readOnly && (
        <div className="actions">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={empty}
            onClick={props.onClearAll}
          >
            {s.clearAll}
          </button>
        </div>
      )}
      <div className="calibrator-list-grid">
        {sections.map((section) => (
          <ItemList key={section.kind} {...props} kind={section.kind} title={section.title} />
        ))}
      </div>
    </div>
  );
}
