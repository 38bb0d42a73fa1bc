import { useEffect, useRef } from 'react';

/**
 * A ref for an element (give it tabIndex -1) that takes the focus when `ready` turns true after
 * `arm()`: e.g. a record's signature once it has reloaded signed, where the Approve button that had
 * the focus is gone.
 */
export function useFocusWhen(ready: boolean) {
  const target = useRef<HTMLElement>(null);
  const armed = useRef(false);
  useEffect(() => {
    if (!armed.current || !ready) return;
    armed.current = false;
    target.current?.focus();
  }, [ready]);
  return {
    target,
    arm: () => {
      armed.current = true;
    },
  };
}
