import { useCallback, useEffect, useState } from 'react';
import { getFloorplanImage } from '../../../api/get-floorplan-image.ts';
import type { Size } from './geometry.ts';

export type FloorplanImage =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; bitmap: ImageBitmap; size: Size };

/**
 * Loads and decodes the floor plan (decoding happens off the main thread in createImageBitmap).
 * A failure of either step is 'failed'; `retry` loads again.
 */
export function useFloorplanImage(imagePath: string): {
  image: FloorplanImage;
  retry: () => void;
} {
  const [image, setImage] = useState<FloorplanImage>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((value) => value + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger.
  useEffect(() => {
    let current = true;
    let loaded: ImageBitmap | null = null;
    setImage({ status: 'loading' });
    getFloorplanImage(imagePath)
      .then((bytes) => new Blob([bytes]))
      .then((blob) => createImageBitmap(blob))
      .then((bitmap) => {
        loaded = bitmap;
        if (!current) {
          bitmap.close();
          return;
        }
        setImage({
          status: 'ready',
          bitmap,
          size: { width: bitmap.width, height: bitmap.height },
        });
      })
      .catch((error: unknown) => {
        console.error('Failed to load floorplan image', imagePath, error);
        if (current) setImage({ status: 'failed' });
      });
    return () => {
      current = false;
      loaded?.close();
    };
  }, [imagePath, attempt]);

  return { image, retry };
}
