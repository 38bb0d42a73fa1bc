import { useCallback, useEffect, useRef, useState } from 'react';
import type { Floorplan } from '../../../types/api.ts';
import { getFloorplans } from '../api/get-floorplans.ts';

export interface Floorplans {
  /** Null until the first answer, and after a failed load (spec §8: only logged). */
  list: Floorplan[] | null;
  failed: boolean;
  reload: () => void;
  /** Puts a just-uploaded floor plan in place of its line's old one, before the reload answers. */
  replaceForLine: (floorplan: Floorplan) => void;
}

export function useFloorplans(): Floorplans {
  const [list, setList] = useState<Floorplan[] | null>(null);
  const [failed, setFailed] = useState(false);
  const mounted = useRef(true);

  const reload = useCallback(() => {
    getFloorplans()
      .then((answer) => {
        if (!mounted.current) return;
        setList(answer);
        setFailed(false);
      })
      .catch((error: unknown) => {
        console.error('Failed to load floorplans', error);
        if (mounted.current) setFailed(true);
      });
  }, []);

  useEffect(() => {
    mounted.current = true;
    reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  const replaceForLine = useCallback((floorplan: Floorplan) => {
    setList((current) => [
      ...(current ?? []).filter((existing) => existing.lineID !== floorplan.lineID),
      floorplan,
    ]);
  }, []);

  return { list, failed, reload, replaceForLine };
}
