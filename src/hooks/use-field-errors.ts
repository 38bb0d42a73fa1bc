import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { toastWarning } from '../stores/toasts.ts';

/**
 * Errors shown at the field they concern (Field's `error`: the control is marked invalid and
 * described by the message). `fail` shows one and moves focus to its control, rendered first so a
 * screen reader reads the error with the field; `warn` also shows it as the warning toast (spec §5
 * 'Please enter a name for the user'); `clear` before the next check.
 */
export function useFieldErrors<Key extends string>() {
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const controls = useRef<Partial<Record<Key, HTMLElement | null>>>({});

  const fail = (key: Key, message: string) => {
    flushSync(() => setErrors({ [key]: message } as Partial<Record<Key, string>>));
    controls.current[key]?.focus();
  };
  const control = (key: Key) => (element: HTMLElement | null) => {
    controls.current[key] = element;
  };

  return {
    errors,
    fail,
    warn: (key: Key, message: string) => {
      toastWarning(message);
      fail(key, message);
    },
    clear: () => setErrors({}),
    /** The ref of the field's control, where `fail` moves the focus. */
    control,
    /**
     * A TextField's props for the field: its error, also announced (the focus may already be on
     * the field, Enter typed in it, and a toast outside a dialog is hidden from screen readers),
     * and the ref of its input or text area.
     */
    textField: (key: Key) => ({
      error: errors[key] ?? null,
      announce: true,
      inputRef: control(key),
      textareaRef: control(key),
    }),
  };
}
