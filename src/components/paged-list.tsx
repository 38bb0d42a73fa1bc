import { type ReactNode, useRef, useState } from 'react';
import { Pager } from './pager.tsx';
import './paged-list.css';

/** The paged lists' own words (the spec has none for paging). */
const pagedListStrings = {
  pages: 'Pages',
  previous: 'Previous page',
  next: 'Next page',
  count: (total: number, noun: readonly [string, string]) =>
    `${total} ${noun[total === 1 ? 0 : 1]}`,
  range: (from: number, to: number, total: number, noun: readonly [string, string]) =>
    `${from}–${to} of ${total} ${noun[total === 1 ? 0 : 1]}`,
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
} as const;

/** The page shown of a list, from `usePage`. */
export interface Paging {
  /** From 1. */
  page: number;
  pages: number;
  /** The index of the page's first item. */
  from: number;
  pageSize: number;
  total: number;
  go(page: number): void;
}

/** An item to show: when `key` changes, the page holding item `index()` (from 0; -1 for none) shows. */
export interface PageTarget {
  key: unknown;
  index(): number;
}

/**
 * The page of a list shown, back to 1 when `filterKey` changes (compared with ===) and kept within
 * the list when it shrinks (the last card of the last page deleted). With a `target`, the page of
 * its item shows whenever its key changes, on the first render too (a link to /video/{id} shows
 * that video's card); it wins over a filter change in the same render.
 */
export function usePage(
  total: number,
  pageSize: number,
  filterKey: unknown,
  target?: PageTarget,
): Paging {
  const pageOf = (item: PageTarget | undefined) => {
    const index = item ? item.index() : -1;
    return index < 0 ? null : Math.floor(index / pageSize) + 1;
  };
  // The first render shows the page of an item chosen beforehand.
  const [state, setState] = useState(() => ({
    page: pageOf(target) ?? 1,
    filterKey,
    targetKey: target?.key,
  }));
  let page = state.page;
  const newTarget = state.targetKey !== target?.key;
  if (state.filterKey !== filterKey || newTarget) {
    if (state.filterKey !== filterKey) page = 1;
    if (newTarget) page = pageOf(target) ?? page;
    setState({ page, filterKey, targetKey: target?.key });
  }
  const pages = Math.max(1, Math.ceil(total / pageSize));
  page = Math.min(page, pages);
  return {
    page,
    pages,
    from: (page - 1) * pageSize,
    pageSize,
    total,
    go: (to: number) => setState({ page: to, filterKey, targetKey: target?.key }),
  };
}

/**
 * A page of a list (`children`, the items from `paging.from`) between a line saying how many there
 * are in all and, when there are several pages, the Pager below.
 */
export function PagedList({
  paging,
  noun,
  children,
}: {
  paging: Paging;
  /** What an item is, singular and plural, for the count ('20006 videos'). */
  noun: readonly [string, string];
  children: ReactNode;
}) {
  const { page, pages, from, pageSize, total, go } = paging;
  const countLine = useRef<HTMLParagraphElement>(null);
  // The pager sits below the items: on a phone the new page's start is screens above it.
  const turnTo = (to: number) => {
    go(to);
    requestAnimationFrame(() => {
      const line = countLine.current;
      if (line && line.getBoundingClientRect().top < 0) line.scrollIntoView({ block: 'start' });
    });
  };
  const to = Math.min(from + pageSize, total);
  return (
    <>
      {/* aria-live, not role=status: a tab may have its own status line beside the list. */}
      <p ref={countLine} className="muted card-grid-count" aria-live="polite">
        {pages > 1
          ? `${pagedListStrings.range(from + 1, to, total, noun)} · ${pagedListStrings.page(page, pages)}`
          : pagedListStrings.count(total, noun)}
      </p>
      {children}
      {pages > 1 && (
        <Pager
          className="card-grid-pager"
          label={pagedListStrings.pages}
          steps={[
            {
              label: pagedListStrings.previous,
              available: page > 1,
              onClick: () => turnTo(page - 1),
            },
            {
              label: pagedListStrings.next,
              available: page < pages,
              onClick: () => turnTo(page + 1),
            },
          ]}
        />
      )}
    </>
  );
}
