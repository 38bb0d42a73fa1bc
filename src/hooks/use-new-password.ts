import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { newPasswordHint, newPasswordProblem } from '../lib/password-rule.ts';

/**
 * A field that sets a new password (create a user, reset a password): its hint states the rule,
 * and `check()` before sending shows what breaks it under the field and moves focus there. The
 * error shows once a check failed and goes as soon as the password keeps the rule.
 */
export function useNewPassword(initial = '') {
  const [password, setPassword] = useState(initial);
  const [checked, setChecked] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  /** True when the password keeps the rule; otherwise says why at the field. */
  const check = (): boolean => {
    if (!newPasswordProblem(password)) return true;
    // Rendered first, so the focused field already names its error to a screen reader.
    flushSync(() => setChecked(true));
    inputRef.current?.focus();
    return false;
  };

  const reset = (value = initial) => {
    setPassword(value);
    setChecked(false);
  };

  /** The props of its TextField. */
  const field = {
    value: password,
    onChange: setPassword,
    hint: newPasswordHint,
    error: checked ? newPasswordProblem(password) : null,
    inputRef,
  };
  return { password, check, reset, field };
}
