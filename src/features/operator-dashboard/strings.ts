// The operator dashboard's texts (spec §2 title; the contents are this project's: docs/capture.md).
import { MAX_DEVICE_SERIAL_LENGTH } from '../../../server/schemas/device-serial.ts';
import { lineStatusWords } from '../../../server/schemas/line-clearances.ts';
import { captureStrings } from '../../lib/capture/strings.ts';

/** A device label's JSON fields, as a refusal of one names them ('body.qrCode.type'). */
const labelFields: Readonly<Record<string, string>> = {
  serial: 'serial',
  name: 'device name',
  type: 'device type',
};

export const operatorStrings = {
  title: 'Operator Dashboard',
  linesHeading: 'Line Clearances',
  linesLoadFailed: 'Failed to load line clearances',
  noLines: 'No line clearance is assigned to you yet. Ask your LC manager to assign you.',
  startInspection: 'Start Inspection',
  cannotStart: (status: string) => `Cannot start: the line is ${lineStatusWords(status)}`,
  location: 'Location',
  noLocation: 'No location specified',
  floorPlan: 'Floor-plan configuration',
  configured: (tags: number, zones: number) => `Yes: ${tags} checkpoints, ${zones} areas`,
  notConfigured: 'None: no checkpoints to scan',
  lastInspection: 'Your last inspection',
  never: 'Never',
  pendingHeading: 'Pending uploads',
  noPending: 'Nothing waiting on this device.',
  recordedAt: 'Recorded',
  size: 'Size',
  state: {
    recording: 'Being recorded in another tab',
    recorded: 'Recorded, not submitted',
    queued: 'Waiting to upload',
    uploading: 'Uploading',
    failed: 'Stopped',
    done: 'Verified',
  },
  waitingForNetwork: captureStrings.waitingForNetwork,
  /** A video whose file was given up (discarded on the device, refused at ingest): never coming. */
  fileGivenUp: 'File will not arrive',
  resume: 'Resume',
  resumeFailed: 'Failed to resume the upload',
  scansLeftOut: captureStrings.scansLeftOut,
  correct: 'Correct details',
  saveAndUpload: 'Save and upload',
  corrected: 'Details corrected: the recording uploads again',
  correctFailed: 'Failed to correct the details',
  discard: 'Discard',
  confirmDiscard:
    'Are you sure you want to discard this recording? It is deleted from this device and cannot be recovered.',
  discarded: 'Recording discarded',
  discardFailed: 'Failed to discard the recording',
  actionNeeded: 'Action needed',
  lastRejected: (line: string, when: string) =>
    `Your last inspection of ${line} (${when}) was rejected: the line is not cleared until it is inspected again.`,
  inspectAgain: 'Inspect again',
  recentHeading: 'Recent Inspections',
  recentLoadFailed: 'Failed to load inspections',
  noRecent: 'No inspections yet.',
  review: 'Review',
  awaitingReview: 'Waiting for review',
  reviewedBy: (decision: string, signer: string, when: string) =>
    `${decision === 'approved' ? 'Approved' : 'Rejected'} by ${signer}, ${when}`,
  reviewNotes: "Reviewer's notes",
  analysis: 'Analysis',
  upload: 'Upload',
  verified: 'Verified',
  awaitingFile: 'File not uploaded yet',
  open: 'Open',
  devicesHeading: 'Devices',
  devicesLoadFailed: 'Failed to load devices',
  noDevices: 'You have not registered a device yet.',
  registerDevice: 'Register Device',
  scanDevice: 'Scan a device QR code',
  typeCode: 'Or type the device code',
  registerScanned: 'Register scanned device',
  registerTyped: 'Register typed code',
  codeRequired: 'Device code is required: type the code printed on the device label, or scan it',
  /** The server's rule for a device serial (server/schemas/device-serial.ts), after 'a device code'. */
  serialCharacters: 'may contain only letters, digits and . _ : -',
  serialTooLong: (length: number) =>
    `must be at most ${MAX_DEVICE_SERIAL_LENGTH} characters (it has ${length})`,
  typedCodeProblem: (rule: string) => `A device code ${rule}`,
  notDeviceLabel: (rule: string) => `This is not a device label: a device code ${rule}`,
  /** A refusal of one field of a label's JSON text ('body.qrCode.type must be one of …'). */
  labelFieldProblem: (field: string, rule: string) =>
    `The label's ${labelFields[field] ?? field} ${rule}`,
  checkpointCode: (tag: string | null, line: string) =>
    `This is ${tag === null ? 'a checkpoint' : `the checkpoint '${tag}'`} of ${line}, not a device label: scan the label on the phone or tablet.`,
  scannedCode: 'Scanned code',
  confirmScanned: 'Register this device?',
  scanAgain: 'Scan again',
  deviceRegistered: 'Device registered',
  registerFailed: 'Failed to register the device',
  type: 'Type',
  unknown: 'Unknown',
} as const;
