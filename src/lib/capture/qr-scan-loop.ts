// Reads QR codes from a playing <video> continuously: one frame at a time goes to the QR worker
// (createImageBitmap copies it off the element; decoding never runs on the main thread).
import { decodeQrBitmap } from './qr-client.ts';

/** Pause between frames: the worker keeps up and the phone keeps some CPU for the recorder. */
const PAUSE_MS = 60;

/** Starts reading; `onCodes` gets each frame's codes (non-empty). Answers a function that stops. */
export function scanQrCodes(
  video: HTMLVideoElement,
  onCodes: (codes: string[]) => void,
): () => void {
  let running = true;
  const loop = async () => {
    while (running) {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
        try {
          const { codes } = await decodeQrBitmap(await createImageBitmap(video));
          if (running && codes.length > 0) onCodes(codes);
        } catch {
          // A frame that could not be grabbed (the camera switching) is skipped.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  void loop();
  return () => {
    running = false;
  };
}
