import { MIN_REASON_WORDS } from '../../../server/schemas/review-notes.ts';
import type { Signature } from '../../types/api.ts';

/** Inspection report strings (docs/reports.md). */
const keyframeImages = (n: number) => (n === 1 ? '1 keyframe image' : `${n} keyframe images`);

export const reportStrings = {
  title: 'Inspection Report',
  loading: 'Loading the report…',
  loadFailed: 'Failed to load the inspection report',
  notFound: 'Inspection not found',
  downloadPdf: 'Download PDF',
  /** The record's electronic copy (21 CFR 11.10(b)), beside its printable one. */
  downloadCopy: 'Download record (JSON)',
  approve: 'Approve',
  reject: 'Reject',
  /** Under an unavailable Approve, as the LC manager's cards word it. */
  onlyRejectable: (blocker: string) => `${blocker}: it can only be rejected.`,
  nextPending: 'Next pending inspection',
  noMorePending: 'No more pending inspections',
  nextPendingFailed: 'Failed to find the next pending inspection',
  record: 'Record',
  signature: 'Electronic signature',
  notSigned: 'Not signed: the review is pending.',
  /** A reload found the record signed by someone else: why Approve and Reject went. */
  signedMeanwhile: (signature: Pick<Signature, 'signerName' | 'meaning'>) =>
    `${signature.signerName} ${signature.meaning} this inspection meanwhile: it is no longer pending.`,
  changedAfterSigning:
    'The record changed after it was signed: its current hash differs from the signed hash.',
  unchangedSinceSigning: 'Unchanged since signing (the record hash matches).',
  /** The evidence whose digest differs from the one kept at signing. */
  changedParts: (parts: readonly string[]) => `Changed since signing: ${parts.join(', ')}.`,
  checkEvidence: 'Check evidence files',
  checkingEvidence: 'Checking evidence files…',
  checkEvidenceFailed: 'Failed to check the evidence files',
  /** The answer of 'Check evidence files', a sentence a part. */
  evidence: {
    allMatch: (images: number) =>
      `The video file and ${keyframeImages(images)} match what was signed.`,
    videoMatches: 'The video file matches its SHA-256.',
    videoDiffers: (sha256: string) => `The video file does not match its SHA-256 (${sha256}).`,
    videoMissing: 'The video file is missing from storage.',
    videoUnverified: 'The video file has not arrived: it has no SHA-256 to check against.',
    noVideo: 'No video is linked to this inspection.',
    imagesMatch: (images: number) =>
      `The ${keyframeImages(images)} ${images === 1 ? 'matches' : 'match'} what was signed.`,
    imagesDiffer: 'The keyframe images differ from those signed.',
    imagesNone: 'The signed record has no keyframe images.',
    imagesNotKept:
      'The signature was made before keyframe images were hashed with it: they cannot be compared.',
  },
  flags: 'Flags',
  noFlags: 'No flags: nothing needs a closer look.',
  nextFlag: 'Next flag',
  /** Why 'Next flag' does nothing when every flag is dismissed (it steps through open flags). */
  noOpenFlags: 'No open flag: every flag is dismissed.',
  /** The flag 'Next flag' went to, counted among the open flags. */
  openFlag: (n: number, of: number, text: string) => `Open flag ${n} of ${of}: ${text}`,
  /** A dismissed flag picked from the list: it is not one of the open flags counted. */
  dismissedFlag: (text: string) => `Dismissed flag: ${text}`,
  review: 'Video, path and detections',
  skipToDispositions: 'Skip to dispositions',
  noVideo: 'No video was recorded for this inspection.',
  /** A video record whose file is not on the server: nothing to play (its flag says why). */
  videoNotArrived:
    'The video file has not arrived from the operator’s device yet: it plays here once its upload is verified.',
  videoWillNotArrive: (reason: string) => `No video file: ${reason}. There is nothing to play.`,
  checklist: 'Checklist',
  /** The record and the path player above both count a tag scanned either way. */
  scannedHow:
    'A tag counts as scanned when its QR code was read during the recording or the path passed it; the path player shows both.',
  tags: 'Tags',
  hotZones: 'Hot zones',
  /** A zone's visit when there is no path to tell (the no-path flag says why). */
  notAssessable: 'Not assessable (no path)',
  /** A tag's scan when neither the phone's scans nor a path arrived. */
  tagNotAssessable: 'Not assessable (no scans from the phone, no path)',
  coverage: 'Coverage',
  coverageLegend:
    'The path in blue; visited zones outlined green, unvisited zones filled red; tags green when scanned.',
  dispositions: 'Detections and dispositions',
  noDetections: 'No detections.',
  /** Detections empty because nothing was analysed: the approval's blocker says why. */
  nothingAnalysed: (blocker: string) => `No detections to show: ${blocker}`,
  confirm: 'Confirm',
  dismiss: 'Dismiss',
  dismissTitle: 'Dismiss as a false positive',
  reason: 'Reason (required)',
  /**
   * A line clearance reviewer's usual false positives of the detector on a keyframe, one click each
   * in the dismissal dialog; the text is the reason stored (docs/reports.md).
   */
  dismissalReasons: [
    'Reflection or glare on a surface, not an object',
    'Part of the line’s fixed equipment (guard, rail, sensor, fixing)',
    'Outside the line’s clearance area (neighbouring line, aisle, wall)',
    'The operator’s own gloved hand, sleeve or inspection tool',
    'An item that belongs on the line: status label, logbook, shadow-board tool',
    'Shadow or motion blur, not an object',
  ],
  commonReasons: 'Common reasons',
  otherReason: 'Other',
  /** What the decision buttons of the flag 'Next flag' went to name ('Confirm current flag'). */
  currentFlag: 'current flag',
  /** The rule of every reason the trail keeps (givesReason), under the dismissal's field. */
  reasonHint: `At least ${MIN_REASON_WORDS} different words. It is kept with the dismissal in the audit trail.`,
  reasonMissing: `Please give the reason for dismissing this detection, in at least ${MIN_REASON_WORDS} different words`,
  replacedDecisions: 'Decisions on replaced detections',
  replacedDecisionsNote:
    'A later analysis no longer holds these detections. The decisions made on them stay on the record and are signed with it.',
  /** Where a replaced detection came from: '1.000.png, analysis detector 1, replaced …'. */
  replacedFrom: (filename: string, analysisVersion: string | null, replacedAt: string) =>
    `${filename}, analysis ${analysisVersion ?? 'not recorded'}, replaced ${replacedAt}`,
  confirmed: 'Confirmed finding',
  dismissed: 'Dismissed as a false positive',
  dispositionSaved: 'Disposition saved',
  dispositionFailed: 'Failed to save the disposition',
  goTo: 'Go to',
} as const;
