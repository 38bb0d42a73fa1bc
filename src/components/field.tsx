import { cloneElement, type ReactElement, type Ref, useId } from 'react';
import { lengthHint, lengthProblem } from '../lib/text-rules.ts';
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
 * field is marked (an asterisk for the eye, `required` for assistive technology); a hint (the
 * rule the value must keep) and an error show under the control, which they describe; an error
 * also marks it invalid.
 */
export function Field({
  label,
  required = false,
  hint,
  error = null,
  announce = false,
  children,
}: {
  label: string;
  required?: boolean;
  /** Shown under the control, e.g. 'At least 8 characters.' */
  hint?: string;
  /** Shown under the control while not null. */
  error?: string | null;
  /**
   * Also announce the error as it shows (role=alert): in a dialog, where toasts outside are hidden
   * from screen readers and focus may already be on the field (Enter typed in it), so moving it
   * there says nothing.
   */
  announce?: boolean;
  children: ReactElement<FieldControlProps>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
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
        ...(error ? { 'aria-invalid': true } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role={announce ? 'alert' : undefined}>
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
  hint?: string;
  error?: string | null;
  announce?: boolean;
  /** The single-line input, e.g. to move focus to it after a failed check. */
  inputRef?: Ref<HTMLInputElement>;
  /** The text area (with `rows`), likewise. */
  textareaRef?: Ref<HTMLTextAreaElement>;
  /**
   * The most characters the server takes (as it counts them): a counter shows near it, and a
   * longer text is said at the field as it is typed (the form checks `overLimit` before sending).
   */
  limit?: number;
}

export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  rows,
  required,
  hint,
  error,
  announce,
  inputRef,
  textareaRef,
  limit,
}: TextFieldProps) {
  return (
    <Field
      label={label}
      required={required}
      hint={
        [hint, limit === undefined ? undefined : lengthHint(value, limit)]
          .filter(Boolean)
          .join(' ') || undefined
      }
      error={error ?? (limit === undefined ? null : lengthProblem(label, value, limit))}
      announce={announce}
    >
      {rows ? (
        <textarea
          ref={textareaRef}
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
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
