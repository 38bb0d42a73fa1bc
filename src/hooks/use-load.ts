import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { toastError } from '../stores/toasts.ts';

export interface Loaded<T> {
  data: T | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads data when mounted (and on reload); a failure shows the given error toast (spec §8).
 * A 401 shows nothing: the client has already signed out and gone to /login.
 * `enabled` false skips the call entirely (e.g. admin-only data for other roles).
 */
export function useLoad<T>(load: () => Promise<T>, failure: string, enabled = true): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((value) => value + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is a fresh closure each render; `version` is the reload trigger.
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    setLoading(true);
    load()
      .then((result) => {
        if (current) setData(result);
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 401)) toastError(failure);
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [enabled, failure, version]);

  return { data, loading, reload };
}
