import type { ReactNode } from 'react';

export interface RecordCardProps {
  title: ReactNode;
  tags?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}

/** A card for one record: title and tags, its fields as a description list, then its actions. */
export function RecordCard({ title, tags, actions, children }: RecordCardProps) {
  return (
    <article className="card record-card">
      <header className="record-header">
        <h3>{title}</h3>
        {tags && <div className="tags">{tags}</div>}
      </header>
      <dl className="record-fields">{children}</dl>
      {actions && <footer className="card-actions">{actions}</footer>}
    </article>
  );
}

export function RecordField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="record-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export interface CardGridProps<T> {
  items: readonly T[] | null;
  loading: boolean;
  render: (item: T) => ReactNode;
  /** Shows an 'Add New' button above the cards. */
  onAdd?: () => void;
  /** Other controls above the cards (filters, Refresh). */
  toolbar?: ReactNode;
}

/** A tab's list of cards, with its controls above and a status line while loading or empty. */
export function CardGrid<T>({ items, loading, render, onAdd, toolbar }: CardGridProps<T>) {
  let body: ReactNode;
  if (loading && !items) {
    body = (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  } else if (!items || items.length === 0) {
    body = <p className="muted">Nothing here yet.</p>;
  } else {
    body = <div className="card-grid">{items.map(render)}</div>;
  }
  return (
    <>
      {(onAdd || toolbar) && (
        <div className="tab-toolbar">
          {onAdd && (
            <button type="button" className="btn btn-primary" onClick={onAdd}>
              Add New
            </button>
          )}
          {toolbar}
        </div>
      )}
      {body}
    </>
  );
}

export interface RecordAction {
  label: string;
  onClick: () => void;
  variant?: 'secondary' | 'danger' | 'success';
}

/** A card's buttons, each named with the record ('Delete Line 1') so they differ for screen readers. */
export function RecordActions({
  name,
  actions,
}: {
  name: string;
  actions: readonly RecordAction[];
}) {
  return (
    <>
      {actions.map((action) => (
        <button
          key={action.label}
          type="button"
          className={`btn btn-${action.variant ?? 'secondary'}`}
          aria-label={`${action.label} ${name}`}
          onClick={action.onClick}
        >
          {action.label}
        </button>
      ))}
    </>
  );
}
