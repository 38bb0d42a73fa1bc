export interface SelectProps<T extends string> {
  id?: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  /** Shown for an empty value (e.g. a device with no type: 'Unknown'). */
  emptyLabel?: string;
}

/** A native select (keyboard type-ahead and screen readers come with it) over string options. */
export function Select<T extends string>({
  id,
  value,
  options,
  onChange,
  emptyLabel,
}: SelectProps<T>) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value as T)}>
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}
