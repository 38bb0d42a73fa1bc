import { type ReactNode, type Ref, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { PagedList, usePage } from './paged-list.tsx';

export interface RecordCardProps {
  title: ReactNode;
  tags?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  /** Makes the card focusable (tabIndex -1), to take the focus when the actions it had go. */
  ref?: Ref<HTMLElement>;
}

/** A card for one record: title and tags, its fields as a description list, then its actions. */
export function RecordCard({ title, tags, actions, children, ref }: RecordCardProps) {
  return (
    <article ref={ref} tabIndex={ref ? -1 : undefined} className="card record-card">
      <header className="record-header">
        <h3 className="wrap-anywhere">{title}</h3>
        {tags && <div className="tags">{tags}</div>}
      </header>
      <dl className="record-fields">{children}</dl>
      {actions && <footer className="card-actions">{actions}</footer>}
    </article>
  );
}

export interface RecordFieldProps {
  label: string;
  children: ReactNode;
  /** The value is a record's id: set as one, broken evenly where the card is narrow. */
  recordId?: boolean;
}

export function RecordField({ label, children, recordId = false }: RecordFieldProps) {
  return (
    <div className="record-field">
      <dt>{label}</dt>
      <dd className={recordId ? 'wrap-anywhere record-id' : 'wrap-anywhere'}>{children}</dd>
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
  /** Cards drawn at once: a plant's 20,000 videos drawn together took 39 s and 214 MB. */
  pageSize?: number;
  /** The list's filter: when it changes, the first page shows again. */
  filterKey?: string;
  /** What a card is, singular and plural, for the count ('20006 videos'). */
  noun?: readonly [string, string];
  /** Said when there is no card, where the list's rule explains why (a tab's scope). */
  empty?: ReactNode;
}

const defaultPageSize = 24;

/** The first control of a card's actions (its Edit, View, …). */
const firstAction = (card: Element | undefined) =>
  card?.querySelector<HTMLElement>('.card-actions :is(a[href], button)') ?? null;

/**
 * Keeps the focus in the grid when the control holding it goes, instead of <body>: a card kept
 * without it (Unlock done) gives it to the card's first action; a card gone (deleted, then the
 * list reloaded) to the next card's first action, else Add New, else the last card's.
 */
function useFocusAfterRemoval() {
  const grid = useRef<HTMLDivElement>(null);
  const addNew = useRef<HTMLButtonElement>(null);
  const focused = useRef<{ control: Element; card: Element; index: number } | null>(null);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const control = event.target as Element;
      const cards = [...(grid.current?.children ?? [])];
      const index = cards.findIndex((card) => card.contains(control));
      focused.current = index < 0 ? null : { control, card: cards[index] as Element, index };
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);
  useLayoutEffect(() => {
    const lost = focused.current;
    if (!lost || lost.control.isConnected) return;
    focused.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const cards = grid.current?.children;
    const target = lost.card.isConnected
      ? firstAction(lost.card)
      : (firstAction(cards?.[lost.index]) ??
        addNew.current ??
        firstAction(cards?.[cards.length - 1]));
    target?.focus();
  });
  return { grid, addNew };
}

/**
 * A tab's list of cards, with its controls above and a status line while loading or empty. It
 * draws one page of cards at a time, says how many there are in all and pages with the Pager.
 */
export function CardGrid<T>({
  items,
  loading,
  render,
  onAdd,
  toolbar,
  pageSize = defaultPageSize,
  filterKey,
  noun = ['record', 'records'],
  empty = 'Nothing here yet.',
}: CardGridProps<T>) {
  const focus = useFocusAfterRemoval();
  const total = items?.length ?? 0;
  const paging = usePage(total, pageSize, filterKey);
  let body: ReactNode;
  if (loading && !items) {
    body = (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  } else if (!items || items.length === 0) {
    body = <p className="muted">{empty}</p>;
  } else {
    body = (
      <PagedList paging={paging} noun={noun}>
        <div ref={focus.grid} className="card-grid">
          {items.slice(paging.from, paging.from + pageSize).map(render)}
        </div>
      </PagedList>
    );
  }
  return (
    <>
      {(onAdd || toolbar) && (
        <div className="tab-toolbar">
          {onAdd && (
            <button ref={focus.addNew} type="button" className="btn btn-primary" onClick={onAdd}>
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
  /**
   * Why the server would refuse the action: the button stays in the tab order but does nothing
   * (`aria-disabled`), and this reason shows beside it as its description.
   */
  unavailable?: string | null;
}

/**
 * One action's button. An unavailable one stays in the tab order, does nothing and is described by
 * the note with id `noteId` (which the caller shows, e.g. with the `action-note` class), so a
 * keyboard reaches it and a screen reader reads it as dimmed with its reason.
 */
export function ActionButton({
  action,
  name,
  noteId,
}: {
  action: RecordAction;
  /** The button's accessible name, when the label alone would not tell it from others. */
  name?: string;
  noteId: string;
}) {
  return (
    <button
      type="button"
      className={`btn btn-${action.variant ?? 'secondary'}`}
      aria-label={name}
      aria-disabled={action.unavailable ? true : undefined}
      aria-describedby={action.unavailable ? noteId : undefined}
      onClick={action.unavailable ? undefined : action.onClick}
    >
      {action.label}
    </button>
  );
}

/**
 * A card's buttons, each named with the record ('Delete Line 1') so they differ for screen readers.
 * An unavailable one is announced as dimmed with its reason, which also shows after the buttons;
 * a reason shared by several buttons (Edit and Delete of an account one may not manage) shows once.
 */
export function RecordActions({
  name,
  actions,
}: {
  name: string;
  actions: readonly RecordAction[];
}) {
  const id = useId();
  const reasons = [
    ...new Set(actions.flatMap((action) => (action.unavailable ? [action.unavailable] : []))),
  ];
  const noteId = (reason: string | null | undefined) =>
    `${id}-${reason ? reasons.indexOf(reason) : -1}`;
  return (
    <>
      {actions.map((action) => (
        <ActionButton
          key={action.label}
          action={action}
          name={`${action.label} ${name}`}
          noteId={noteId(action.unavailable)}
        />
      ))}
      {reasons.map((reason) => (
        <p key={reason} id={noteId(reason)} className="muted action-note">
          {reason}
        </p>
      ))}
    </>
  );
}
