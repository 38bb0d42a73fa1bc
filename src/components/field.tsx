import { cloneElement, type ReactElement, useId } from 'react';

/** A label tied to its one control by id, so every input is named for screen readers. */
export function Field({
  label,
  children,
}: {
  label: string;
  children: ReactElement<{ id?: string }>;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, { id })}
    </div>
  );
}

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  /** Rows for a multi-line text area; a single-line input when absent. */
  rows?: number;
}

export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  rows,
}: TextFieldProps) {
  return (
    <Field label={label}>
      {rows ? (
        <textarea rows={rows} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          type={type}
          autoComplete={autoComplete}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
