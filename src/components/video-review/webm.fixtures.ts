/**
 * A recording as the phone makes it (src/features/inspection/recorder.ts): a stream through
 * MediaRecorder as WebM, in chunks of a timeslice. Its header went out with the first chunk, so it
 * states no duration and has no cues (recorded in one piece, Chromium writes both at the end):
 * Chromium reports Infinity. The picture is noise at a high bitrate (about 1.4 MB a second): a
 * small file is soon read whole, which tells the duration by itself (a phone's hundreds of
 * megabytes are not). An object URL: revoke it when done.
 */
export async function recordWebm(milliseconds = 1000): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 240;
  const context = canvas.getContext('2d');
  const noise = context?.createImageData(320, 240);
  const paint = setInterval(() => {
    if (!context || !noise) return;
    for (let i = 0; i < noise.data.length; i++) noise.data[i] = Math.random() * 256;
    context.putImageData(noise, 0, 0);
  }, 40);
  const recorder = new MediaRecorder(canvas.captureStream(25), {
    mimeType: 'video/webm',
    videoBitsPerSecond: 8_000_000,
  });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => {
    recorder.onstop = resolve;
  });
  recorder.start(100);
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  recorder.stop();
  await stopped;
  clearInterval(paint);
  return URL.createObjectURL(new Blob(chunks, { type: 'video/webm' }));
}
