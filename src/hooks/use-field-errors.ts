import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { isBlank } from '../../server/schemas/blank.ts';
import { toastWarning } from '../stores/toasts.ts';

/**
 * Errors shown at the field they concern (Field's `error`: the control is marked invalid and
 * described by the message). `fail` shows one (`failAll` several) and moves focus to its control
 * (the first one's), rendered first so a screen reader reads the error with the field; `warn` also
 * shows it as the warning toast (spec §5 'Please enter a name for the user'), as `warnIfBlank`
 * does for required fields; `clear` before the next check. A field edited since (an `input` event
 * on its `control`) shows its error no more, from the render its own onChange makes.
 */
export function useFieldErrors<Key extends string>() {
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const controls = useRef<Partial<Record<Key, HTMLElement | null>>>({});
  // Fields edited since their error was set. Not state: a render from the control's own `input`
  // listener would run before React's onChange and put the old value back into the control.
  const edited = useRef(new Set<Key>());
  const onEdit = useRef<Partial<Record<Key, () => void>>>({});

  const failAll = (found: Partial<Record<Key, string>>) => {
    edited.current.clear();
    flushSync(() => setErrors(found));
    const first = Object.keys(found)[0] as Key | undefined;
    if (first !== undefined) controls.current[first]?.focus();
  };
  const fail = (key: Key, message: string) =>
    failAll({ [key]: message } as Partial<Record<Key, string>>);
  const control = (key: Key) => (element: HTMLElement | null) => {
    controls.current[key] = element;
    // One listener a field: the DOM adds the same function once, however often the ref is set.
    onEdit.current[key] ??= () => edited.current.add(key);
    element?.addEventListener('input', onEdit.current[key]);
  };

  const shown = Object.fromEntries(
    Object.entries(errors).filter(([key]) => !edited.current.has(key as Key)),
  ) as Partial<Record<Key, string>>;

  return {
    errors: shown,
    fail,
    failAll,
    warn: (key: Key, message: string) => {
      toastWarning(message);
      fail(key, message);
    },
    /**
     * Spec §5 required fields: when any value is blank (by the server's rule: invisible characters
     * alone too), warns `message` (the spec's toast), says `atField(key)` at each blank field,
     * focuses the first, and answers true.
     */
    warnIfBlank: (
      message: string,
      values: Partial<Record<Key, string>>,
      atField: (key: Key) => string = () => message,
    ): boolean => {
      const blank = (Object.keys(values) as Key[]).filter((key) => isBlank(values[key] ?? ''));
      if (blank.length === 0) return false;
      toastWarning(message);
      failAll(
        Object.fromEntries(blank.map((key) => [key, atField(key)])) as Partial<Record<Key, string>>,
      );
      return true;
    },
    clear: () => {
      edited.current.clear();
      setErrors({});
    },
    /** The ref of the field's control, where `fail` moves the focus. */
    control,
    /**
     * A TextField's props for the field: its error, also announced (the focus may already be on
     * the field, Enter typed in it, and a toast outside a dialog is hidden from screen readers),
     * and the ref of its input or text area.
     */
    textField: (key: Key) => ({
      error: shown[key] ?? null,
      announce: true,
      inputRef: control(key),
      textareaRef: control(key),
    }),
  };
}
