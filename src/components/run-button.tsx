import { useState } from 'react';

export interface RunButtonProps {
  label: string;
  /** Shown while `onRun` runs ('Verifying…'). */
  busyLabel: string;
  className: string;
  onRun: () => Promise<void>;
}

/**
 * A button for a long action (Verify trail, Check signed records): while it runs it says so and
 * ignores presses. Not `disabled`, which would drop the focus to <body>: `aria-disabled` says it.
 */
export function RunButton({ label, busyLabel, className, onRun }: RunButtonProps) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await onRun();
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className={className} onClick={run} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </button>
  );
}
