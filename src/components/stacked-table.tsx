import './stacked-table.css';

/**
 * A cell's column name, shown only where a `stacked-table`'s rows are stacked (a phone); hidden
 * from assistive technology, which takes the name from the column header.
 */
export function CellLabel({ children }: { children: string }) {
  return (
    <span className="stacked-cell-label" aria-hidden="true">
      {children}
    </span>
  );
}
