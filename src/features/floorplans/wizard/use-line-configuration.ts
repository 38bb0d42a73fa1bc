import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import type { FloorplanConfig, FloorplanConfiguration } from '../../../types/api.ts';
import { getLineConfiguration } from '../api/get-line-configuration.ts';

export interface LineConfiguration {
  /** The line the answer belongs to; while it differs from the chosen line, it is loading. */
  lineId: string;
  loaded: boolean;
  /** The saved configuration, or null when the line has none (or it could not be read). */
  configuration: FloorplanConfiguration | null;
  /** Its version, which a save sends back (docs/api-contract.md "Versions"); none when unsaved. */
  version?: number;
}

/**
 * The saved configuration of the chosen line clearance, so it opens for editing. A failure is
 * only logged (spec §8); 404 just means nothing is saved yet.
 */
export function useLineConfiguration(lineId: string) {
  const [state, setState] = useState<LineConfiguration>({
    lineId: '',
    loaded: false,
    configuration: null,
  });
  useEffect(() => {
    if (!lineId) return;
    let current = true;
    setState({ lineId, loaded: false, configuration: null });
    getLineConfiguration(lineId)
      .then((saved) => {
        if (current) {
          setState({
            lineId,
            loaded: true,
            configuration: saved.configuration,
            version: saved.version,
          });
        }
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) {
          console.error('Failed to load the floorplan configuration', error);
        }
        if (current) setState({ lineId, loaded: true, configuration: null });
      });
    return () => {
      current = false;
    };
  }, [lineId]);

  /** After a save, or a save refused as another manager's came first: the one stored now. */
  const replace = useCallback(
    (stored: FloorplanConfig) =>
      setState({
        lineId,
        loaded: true,
        configuration: stored.configuration,
        version: stored.version,
      }),
    [lineId],
  );

  const ready = state.lineId === lineId && state.loaded;
  return {
    ready,
    configuration: ready ? state.configuration : null,
    version: ready ? state.version : undefined,
    replace,
  };
}
