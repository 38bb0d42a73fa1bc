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

/** A sentence for the operator: why the camera did not open and what to do. */
export function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (!window.isSecureContext || name === 'SecurityError') {
    return 'The camera needs a secure connection: open the app over HTTPS (or on this device as localhost).';
  }
  if (name === 'NotAllowedError') {
    return 'Camera access was refused. Allow the camera for this site in the browser settings, then try again.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return 'No camera was found on this device.';
  }
  if (name === 'NotReadableError')
    return 'The camera is in use by another app. Close it and try again.';
  return `The camera could not be opened${error instanceof Error ? `: ${error.message}` : ''}.`;
}
