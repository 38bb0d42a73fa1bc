// Texts of the recordings kept on the device and their upload queue (docs/capture.md), shown on
// the inspection screen and the operator dashboard.

export const captureStrings = {
  interrupted: 'Recording interrupted',
  noConnection: 'No connection to the server',
  waitingForNetwork: 'Waiting for the network; it retries by itself.',
  uploadRefused: (status: number) => `The server refused the upload (HTTP ${status})`,
  checksumMismatch:
    'The server received a different file than was recorded: tap Resume to upload it again',
  notFound: 'Recording not found',
  alreadySubmitted: 'The inspection was already submitted',
  recordingElsewhere: 'This recording is being recorded in another tab',
  busyElsewhere: 'This recording is being uploaded in another tab: try again in a moment',
  scansLeftOut: (n: number) =>
    n === 1
      ? 'One scan was made after the end of the stored video: it is left out of the submission.'
      : `${n} scans were made after the end of the stored video: they are left out of the submission.`,
} as const;
