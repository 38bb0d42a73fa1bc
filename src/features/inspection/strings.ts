// The inspection screen's texts (the spec leaves this screen's contents open: docs/capture.md).
import { lineStatusWords } from '../../../server/schemas/line-clearances.ts';
import { entryLabels } from '../../lib/capture/recording-entries.ts';
import { captureStrings } from '../../lib/capture/strings.ts';

export const inspectionStrings = {
  title: 'Inspection',
  loading: 'Loading the line…',
  loadFailed: 'Failed to load line clearance',
  notFound: 'Line clearance not found',
  notAssigned: 'You are not assigned to this line clearance, so you cannot inspect it.',
  notActive: (status: string) =>
    `This line is ${lineStatusWords(status)}: inspections cannot start.`,
  backToDashboard: 'Back to Operator Dashboard',
  steps: ['Before', 'Record', 'Review'] as const,
  stepOf: (step: number) => `Step ${step} of 3`,
  // Before
  productLeaving: entryLabels.productLeaving,
  batchLeaving: entryLabels.batchLeaving,
  productComing: entryLabels.productComing,
  batchComing: entryLabels.batchComing,
  device: 'Device used',
  noDevice: 'This phone (not registered)',
  checkpoints: 'Checkpoints to scan',
  areas: 'Areas to walk through',
  noConfiguration:
    'This line has no saved floor-plan configuration: there are no checkpoints to scan. You can still record.',
  noQrCode: 'no QR code: cannot be scanned',
  startRecording: 'Start Recording',
  // Record
  preview: 'Camera preview',
  record: 'Record',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
  elapsed: 'Elapsed',
  storageLeft: 'Storage left',
  recordedSize: 'Recorded',
  // Leaving while recording: the chunks are already on the phone, so only the walk is cut short.
  leaveTitle: 'Leave while recording?',
  confirmLeave:
    'Recording is in progress. Leave this page? The recording stops here and stays on this device: submit it from the Operator Dashboard.',
  signOutTitle: 'Log out while recording?',
  confirmSignOut:
    'Recording is in progress. Log out? The recording stops here and stays on this device: sign in again as yourself to submit it from the Operator Dashboard.',
  keepRecording: 'Keep recording',
  leave: 'Stop and leave',
  signOut: 'Stop and log out',
  leftWhileRecording: 'The page was left while recording: the recording stopped there.',
  scanned: (n: number, m: number) => `${n} of ${m} checkpoints scanned`,
  /** Under the checklist until enough checkpoints are scanned for the analysis to draw the path. */
  pathHint: (minimum: number) =>
    `Scan at least ${minimum} checkpoints: the analysis draws the path you walked from them.`,
  scanTicked: (name: string) => `Checkpoint scanned: ${name}`,
  scanRepeat: (name: string) => `Scanned again: ${name} (already counted)`,
  scanOtherLine: (line: string) => `This QR code belongs to ${line}, not to this line`,
  scanUnknown: (code: string) => `Unknown QR code: ${code}`,
  openingCamera: 'Opening the camera…',
  noRecorder: 'This browser cannot record video (no MediaRecorder with WebM or MP4).',
  motionRefused: 'Motion sensors were not allowed: the path will rely on the QR scans only.',
  recordingFailed: 'Recording failed',
  storageFull:
    'The phone’s storage is full, so the recording stopped. What was recorded up to that moment is kept.',
  notStored: (reason: string) =>
    `The recording could not be stored on this phone (${reason}), so it stopped. What was recorded up to that moment is kept.`,
  retryCamera: 'Retry',
  backToBefore: 'Back to product and batch',
  // Review
  yourRecording: 'Your recording',
  playbackMissing: 'The recorded video was not found on this phone, so it cannot be played back.',
  playbackFailed: 'This phone cannot play the recording back.',
  duration: 'Duration',
  size: 'Size',
  missed: 'Not scanned',
  allScanned: 'Every checkpoint was scanned.',
  /** Fewer checkpoints scanned than the analysis needs for a path; submitting stays allowed. */
  noPath: (scanned: number, minimum: number) =>
    `${scanned === 0 ? 'No checkpoint was scanned' : `Only ${scanned} ${scanned === 1 ? 'checkpoint was' : 'checkpoints were'} scanned`}: the analysis needs at least ${minimum} scanned checkpoints to draw the path you walked on the floor plan, so the LC manager will not see your route. You can still submit this recording; to show the route, record again and scan each checkpoint’s QR code as you pass it.`,
  scansLeftOut: captureStrings.scansLeftOut,
  emptyRecording:
    'Nothing was recorded: the camera handed over no video. Discard this recording and record again.',
  /** Below the report's minimum (`reportRules`), which flags it high; submitting stays allowed. */
  shortRecording: (duration: string, minimum: string) =>
    `This recording is ${duration} long, shorter than the ${minimum} minimum: the LC manager will see it flagged in the report. If the walk was incomplete, discard it and record again.`,
  notes: entryLabels.notes,
  submit: 'Submit',
  submitting: 'Submitting…',
  submitFailed: 'Failed to submit the recording',
  discard: 'Discard recording',
  discardFailed: 'Failed to discard the recording',
  confirmDiscard: 'Are you sure you want to discard this recording? It cannot be recovered.',
  // After Submit: only the server's word that the file was verified is called verified.
  submitted: 'Inspection submitted',
  sending: 'Submitting the inspection',
  notSubmitted: 'Inspection not submitted',
  uploadStopped: 'Upload stopped',
  keptOnDevice:
    'The recording is kept on this device: resume, correct or discard it from the Operator Dashboard.',
  uploadingNote:
    'The recording uploads in the background. You can leave this page: the upload goes on from the Operator Dashboard, and resumes by itself when the network returns.',
  waitingForNetwork: captureStrings.waitingForNetwork,
  checkingUpload: 'Checking the upload with the server…',
  uploadVerified: 'Upload complete and verified.',
  discarded: 'Recording discarded',
  discardedAfterSubmit:
    'The recording was discarded on this device before its file was verified: the inspection has no video on the server.',
  discardedBeforeSubmit: 'The recording was discarded on this device before it was submitted.',
  outcomeUnknown:
    'The recording has left this device. Its report shows whether the server verified its file.',
  openReport: 'Open the inspection report',
} as const;
