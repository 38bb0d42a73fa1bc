import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { cameraProblem, closeCamera, openRearCamera } from '../lib/capture/camera.ts';
import { scanQrCodes } from '../lib/capture/qr-scan-loop.ts';
import { useLatest } from './use-latest.ts';

export interface QrCamera {
  /** The open camera, once ready (a recorder records it). */
  stream: MediaStream | null;
  status: 'opening' | 'ready' | 'failed';
  /** Why the camera did not open, for the operator. */
  problem: string | null;
  /** Opens the camera again (after the operator allowed it or closed the app holding it). */
  retry: () => void;
}

type CameraState = Omit<QrCamera, 'retry'>;

/**
 * Opens the rear camera into the video element while mounted and reads QR codes from it
 * continuously (in the QR worker); `onCodes` gets each frame's codes. The camera closes on unmount;
 * `retry` opens it again after a failure.
 */
export function useQrCamera(
  videoRef: RefObject<HTMLVideoElement | null>,
  onCodes: (codes: string[]) => void,
): QrCamera {
  const [camera, setCamera] = useState<CameraState>({
    stream: null,
    status: 'opening',
    problem: null,
  });
  const [attempt, setAttempt] = useState(0);
  const handler = useLatest(onCodes);
  const opened = useRef<MediaStream | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the camera opens once per mount and retry.
  useEffect(() => {
    let cancelled = false;
    if (attempt > 0) setCamera({ stream: null, status: 'opening', problem: null });
    let stopScanning = () => {};
    openRearCamera()
      .then(async (stream) => {
        if (cancelled) return closeCamera(stream);
        opened.current = stream;
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = stream;
        await video.play().catch(() => {});
        stopScanning = scanQrCodes(video, (codes) => handler.current(codes));
        setCamera({ stream, status: 'ready', problem: null });
      })
      .catch((error: unknown) => {
        if (!cancelled)
          setCamera({ stream: null, status: 'failed', problem: cameraProblem(error) });
      });
    return () => {
      cancelled = true;
      stopScanning();
      closeCamera(opened.current);
      opened.current = null;
    };
  }, [attempt]);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { ...camera, retry };
}
