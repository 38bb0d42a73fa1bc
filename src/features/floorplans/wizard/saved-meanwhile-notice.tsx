import { useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { wizardStrings as w } from '../strings.ts';

/**
 * Who changed the saved configuration and when, as the server's 409 words them ('by Adriana Novak
 * on 2026-11-26 at 02:41 UTC'; docs/api-contract.md "Versions"); null when it did not say (a change
 * made outside the application, or no message).
 */
export function changedByWhomWhen(error: unknown): string | null {
  const message = error instanceof ApiError ? error.serverMessage : undefined;
  const match = message?.match(
    / was changed (by .+? on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} UTC) since you opened it/,
  );
  return match?.[1] ?? null;
}

/** A save refused because another one came first: who and when, as `changedByWhomWhen` reads it. */
export interface SavedMeanwhile {
  change: string | null;
}

export interface SavedMeanwhileNoticeProps {
  lineName: string;
  /** A new object for every refusal, so a repeated one takes the focus again. */
  refusal: SavedMeanwhile;
  saving: boolean;
  onLoadSaved: () => void;
  onSaveOver: () => void;
}

/**
 * Where Save was, after a save refused as another manager's came first (409): what happened, and
 * the two ways on, so a second Save never replaces the other one unseen.
 */
export function SavedMeanwhileNotice({ lineName, refusal, ...props }: SavedMeanwhileNoticeProps) {
  const notice = useRef<HTMLDivElement>(null);
  // The Save button that had the focus is gone: keyboard users go on from here.
  useEffect(() => {
    if (refusal) notice.current?.focus();
  }, [refusal]);
  return (
    <div ref={notice} tabIndex={-1} className="notice notice-warning" role="alert">
      <p>
        <strong>{w.savedMeanwhileTitle}</strong>
      </p>
      <p>{w.savedMeanwhileText(lineName, refusal.change)}</p>
      <div className="actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={props.saving}
          onClick={props.onLoadSaved}
        >
          {w.loadSavedConfiguration}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={props.saving}
          onClick={props.onSaveOver}
        >
          {w.saveMineOverIt}
        </button>
      </div>
    </div>
  );
}
