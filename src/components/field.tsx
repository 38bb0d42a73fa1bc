import { cloneElement, type ReactElement, type Ref, useId } from 'react';
import './field.css';

/** What Field gives its control: the id its label names, and the required and error state. */
interface FieldControlProps {
  id?: string;
  required?: boolean;
  'aria-required'?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * A label tied to its one control by id, so every input is named for screen readers. A required
 * field is marked (an asterisk for the eye, `required` for assistive technology); an error shows
 * under the control, which it describes and marks invalid.
 */
export function Field({
  label,
  required = false,
  error = null,
  children,
}: {
  label: string;
  required?: boolean;
  /** Shown under the control while not null. */
  error?: string | null;
  children: ReactElement<FieldControlProps>;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {required && (
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {cloneElement(children, {
        id,
        ...(required ? { required: true, 'aria-required': true } : {}),
        ...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}),
      })}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
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
  required?: boolean;
  error?: string | null;
  /** The single-line input, e.g. to move focus to it after a failed check. */
  inputRef?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  rows,
  required,
  error,
  inputRef,
}: TextFieldProps) {
  return (
    <Field label={label} required={required} error={error}>
      {rows ? (
        <textarea rows={rows} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          ref={inputRef}
          type={type}
          autoComplete={autoComplete}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
