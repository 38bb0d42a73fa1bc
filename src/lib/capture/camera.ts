// The phone's rear camera (getUserMedia), and what to tell the operator when it cannot be opened.

/** Opens the rear camera at up to 1280×720, no microphone (an inspection records what is seen). */
export function openRearCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(new DOMException('no camera API', 'SecurityError'));
  }
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: {
      facingMode: { ideal: 'environment' },
      width: { ideal: 1280 },
      height: { ideal: 720 },
    },
  });
}

export function closeCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * What to tell the operator: why the camera did not open and what to do about it (every case but
 * plain http:// can be put right on the device, then tried again: docs/capture.md).
 */
export function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (!window.isSecureContext) {
    return 'The camera needs a secure connection, and this page was opened over plain http://. Open the app at its https:// address (ask your administrator for it), or on this device as localhost.';
  }
  if (name === 'SecurityError') {
    return 'The browser does not let this page use the camera. Allow the camera for this site in the browser’s settings, or use another browser, then try again.';
  }
  if (name === 'NotAllowedError') {
    return 'Camera access was refused. Allow the camera for this site (the camera or lock icon by the address, or the browser’s site settings), then try again.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return 'No camera was found on this device. Use a phone or tablet with a camera (or connect one), then try again.';
  }
  if (name === 'NotReadableError') {
    return 'The camera is in use by another app or browser tab. Close it (a video call, the camera app), then try again.';
  }
  const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
  return `The camera could not be opened${detail}. Close other apps that use the camera, allow camera access for this site, then try again.`;
}
