// Floorplan manager strings: the spec's exact words (§2, §5, §8) and our own where it is silent
// (docs/floorplans.md).
import type { Size } from './calibrator/geometry.ts';

const meters = (value: number) => `${value.toFixed(2)} m`;
/** The in-app confirmations' button that keeps everything as it was. */
const cancel = 'Cancel';

export const wizardSteps = [
  'Upload Floorplan',
  'Configure Floorplan Mapping',
  'Points of Interest',
  'Review & Save',
  'Success',
] as const;

export const wizardStrings = {
  title: 'Floorplan Manager',
  progress: 'Wizard progress',
  stepOf: (step: number) => `Step ${step} of ${wizardSteps.length}`,
  back: 'Back',
  cancel,
  loading: 'Loading…',
  readOnly:
    'Your role can look at this floor plan and its configuration; only the line clearance’s manager, a factory manager or an admin can change them.',
  noLines:
    'There is no line clearance yet. Create one first (Admin Dashboard, Line Clearances; or the LC Manager Dashboard), then upload its floor plan here.',
  // Step 1
  lineClearance: 'Line clearance',
  selectLineClearance: 'Select a line clearance',
  image: 'Floor plan image (PNG, JPG, JPEG, GIF)',
  upload: 'Upload Floorplan',
  replace: 'Replace Floorplan',
  uploading: (percent: number) => `Uploading… ${percent}%`,
  uploadProgress: 'Upload progress',
  selectFileAndLine: 'Please select a file and line clearance',
  uploaded: 'Floorplan uploaded successfully!',
  uploadFailed: 'Upload failed',
  /**
   * The server's MAX_UPLOAD_BYTES default (docs/server.md). The app is not told the configured
   * value, so the figure is named as the default; a 413 answer says the actual limit.
   */
  imageLimit: 'Up to 20 MB, unless your administrator has set another limit.',
  /** A 413 that carries no message of the server's (e.g. from a proxy in front of it). */
  imageTooLarge: 'the image is larger than the server accepts, 20 MiB by default',
  /** Before an upload while the calibration holds work not saved (docs/floorplans.md). */
  uploadLosesWorkTitle: 'Upload without saving?',
  uploadLosesWork: (line: string) =>
    `The tags, hot zones and cameras placed or changed on the floor plan of ${line} are not saved, and uploading an image loses them: the wizard goes on with the new floor plan. To keep them, cancel and save the configuration at Review & Save first (an exported file is not saved).`,
  uploadAnyway: 'Upload without saving',
  alreadyHasFloorplan: (line: string, date: string) =>
    `${line} already has a floor plan (uploaded ${date}). Uploading a new image replaces it; the saved configuration is kept.`,
  /** The same notice for a user who may only look (nothing to replace with). */
  hasFloorplan: (line: string, date: string) => `${line} has a floor plan (uploaded ${date}).`,
  continueToConfiguration: 'Continue to Configuration',
  existingFloorplans: 'Floor plans',
  noFloorplans: 'No floor plans yet',
  noFloorplansHint:
    'Upload a floor plan image for a line clearance to place its tags, hot zones and cameras.',
  configure: 'Configure',
  unknownLine: 'Unknown Line',
  // Step 2
  floorplan: 'Floorplan',
  created: 'Created',
  select: 'Select',
  selected: 'Selected',
  delete: 'Delete',
  noFloorplanForLine: 'This line clearance has no floor plan yet. Go back to upload one.',
  continueToCalibration: 'Continue to Calibration',
  confirmDelete: 'Are you sure you want to delete this floorplan? This action cannot be undone.',
  deleted: 'Floorplan deleted successfully!',
  deleteFailed: 'Delete failed',
  // Step 3
  reviewAndSave: 'Review & Save Configuration',
  loadingConfiguration: 'Loading the saved configuration…',
  // Step 4
  summary: 'Summary',
  hotZoneCount: 'Hot zones',
  tagCount: 'Tags',
  cameraCount: 'Static cameras',
  pixelsPerMeter: 'Pixels per meter',
  backToCalibration: 'Back to Calibration',
  exportConfig: 'Export Config',
  saveConfiguration: 'Save Configuration',
  saving: 'Saving…',
  noConfigurationToExport: 'No configuration to export',
  noConfigurationToSave: 'No configuration to save. Please complete the calibration first.',
  noLineSelected: 'No line clearance selected. Please select a line clearance first.',
  saveFailed: 'Save failed',
  /** The line's floor plan changed under an open calibration: what the refused save means. */
  floorplanReplaced: (line: string) =>
    `the floor plan of ${line} was replaced since this calibration was opened`,
  floorplanRemoved: (line: string) =>
    `the floor plan of ${line} was deleted since this calibration was opened`,
  replacedTitle: 'The floor plan was replaced',
  replacedText: (line: string) =>
    `Someone uploaded a new floor plan for ${line} since this calibration was opened, so nothing was saved: these tags, hot zones and cameras were placed on the old image. Open the current floor plan to check them on the new image (they are carried over, scaled to it) and save again. Export Config keeps a copy of this configuration as it is.`,
  removedTitle: 'The floor plan was deleted',
  removedText: (line: string) =>
    `The floor plan of ${line} was deleted since this calibration was opened, so nothing was saved. Export Config keeps a copy of this configuration; upload a floor plan for the line to go on.`,
  openCurrentFloorplan: 'Open the current floor plan',
  /** Another save of the line's configuration came first (409); `change`: 'by … on … UTC'. */
  savedMeanwhileTitle: 'Not saved: the configuration was changed meanwhile',
  savedMeanwhileText: (line: string, change: string | null) =>
    `The saved configuration of ${line} was changed ${change ? `${change}, ` : ''}after this page loaded it, so nothing was saved. Your tags, hot zones and cameras are still on this page. Load the saved configuration to work from it instead (yours are discarded), or save yours over it (the audit trail keeps both).`,
  loadSavedConfiguration: 'Load the saved configuration',
  confirmLoadSaved:
    'Discard your changes and load the saved configuration? Export Config first to keep a copy of yours.',
  saveMineOverIt: 'Save mine over it',
  backToUpload: 'Back to Upload',
  configurationName: (line: string) => `${line} Floorplan Configuration`,
  // Step 5
  savedTitle: 'Configuration saved',
  savedText: (name: string) =>
    `${name} is saved. The video analysis page now draws paths on this floor plan with it.`,
  configureAnother: 'Configure Another Floorplan',
  backToSelection: 'Back to Floorplan Selection',
  // Leaving with work not saved (docs/floorplans.md "Unsaved work")
  leaveTitle: 'Leave without saving?',
  leaveText:
    'The tags, hot zones and cameras placed or changed on this floor plan are not saved, and leaving loses them. To keep them, stay and save the configuration at Review & Save (an exported file is not saved).',
  stay: 'Stay',
  leave: 'Leave without saving',
  // Failure alerts: the spec's prefix and the status text (spec §8)
  networkError: 'the server could not be reached',
} as const;

export const calibratorStrings = {
  region: 'Floor plan calibrator',
  addTag: 'Add Tag',
  cancelTag: 'Cancel Tag',
  addHotZone: 'Add Hot Zone',
  cancelHotZone: 'Cancel Hot Zone',
  addCamera: 'Add Camera',
  cancelCamera: 'Cancel Camera',
  resetConfiguration: 'Reset Configuration',
  confirmReset: 'Reset the configuration? Every change since this floor plan was opened is undone.',
  clearAll: 'Clear All',
  confirmClearAll: 'Remove every tag, hot zone and camera from this floor plan?',
  cancel,
  edit: 'Edit',
  remove: 'Remove',
  loadingImage: 'Loading floor plan image…',
  imageFailed: 'Failed to load floorplan image',
  retry: 'Retry',
  surface: 'Floor plan',
  surfaceHelp:
    'Choose Add Tag, Add Hot Zone or Add Camera, then click the plan, or use the arrow keys (Shift: 10 px) to move the cross and Enter to place. A hot zone takes two corners. Escape cancels. Tab reaches placed items: arrow keys move them, Delete removes them.',
  itemHelp: 'Arrow keys move it (Shift: 10 px); Delete removes it.',
  modeHint: {
    tag: 'Click the plan where the tag hangs, or move the cross with the arrow keys and press Enter.',
    camera:
      'Click the plan where the camera is mounted, or move the cross with the arrow keys and press Enter.',
    hotZone:
      'Drag a rectangle over the zone, or press Enter at one corner and again at the opposite corner.',
  },
  readOnlyHint: 'Read only: the points of interest of this floor plan are shown as saved.',
  tags: 'Tags',
  hotZones: 'Hot Zones',
  cameras: 'Static Cameras',
  noneYet: 'None yet',
  kind: { tag: 'Tag', hotZone: 'Hot zone', camera: 'Camera' },
  placed: (name: string, x: number, y: number) => `${name} placed at ${x}, ${y}`,
  moved: (name: string, x: number, y: number) => `${name} moved to ${x}, ${y}`,
  removed: (name: string) => `${name} removed`,
  crossAt: (x: number, y: number) => `Cross at ${x}, ${y}`,
  cornerSet: (x: number, y: number) =>
    `First corner at ${x}, ${y}. Move to the opposite corner and press Enter.`,
  tooSmall: 'No hot zone created: drag more than 20 px in both directions.',
  tooClose: (name: string, other: string, gap: number) =>
    `${name} is within 30 px of ${other} (${Math.round(gap)} px apart).`,
  at: (x: number, y: number) => `${x}, ${y}`,
  size: (size: Size) => `${size.width} × ${size.height}`,
  // Path Coordinate System
  pathCoordinateSystem: 'Path Coordinate System',
  originalImageSize: 'Original image size',
  autoDetected: '(auto-detected)',
  pixels: (size: Size) => `${size.width} × ${size.height} px`,
  pixelsPerMeter: 'Pixels per meter',
  pixelsPerMeterInvalid: 'Pixels per meter must be a number of at least 0.1.',
  coverageArea: 'Coverage area',
  coverage: (size: Size) => `${meters(size.width)} × ${meters(size.height)}`,
  // Edit dialogs
  editTag: 'Edit Tag',
  editHotZone: 'Edit Hot Zone',
  editCamera: 'Edit Camera',
  name: 'Name',
  description: 'Description',
  color: 'Colour',
  qrCode: 'QR code',
  importance: 'Importance',
  type: 'Type',
  x: 'X (px)',
  y: 'Y (px)',
  width: 'Width (px)',
  height: 'Height (px)',
  nameRequired: (kind: string) => `Please enter a name for the ${kind}`,
  numberRequired: (field: string) => `${field} must be a number`,
  tooLong: (field: string, limit: number) => `${field} must be at most ${limit} characters`,
  hotZoneTooSmall: 'A hot zone must be larger than 20 px in both directions',
  outsidePlan: (display: Size) =>
    `The item must lie on the plan (0–${display.width} by 0–${display.height} px)`,
} as const;

const names = new Intl.ListFormat('en', { type: 'conjunction' });

/** Tag codes in the review step, and the QR label sheet (docs/floorplans.md "Tag codes and labels"). */
export const labelStrings = {
  // Review & Save: tags a phone cannot scan
  codesTitle: 'QR codes',
  /** After a tag's name. A tag still counts as checked when the analysed path passes within 10 px. */
  hasNoCode:
    ' has no QR code: the operator’s phone cannot scan it, so every inspection will flag it as not scanned unless the analysed path passes right by it.',
  sharedCode: (tags: readonly string[], code: string) =>
    `${names.format(tags)} share the QR code ${code}: a scan ticks only ${tags[0]}.`,
  giveCodes: 'Give codes to tags without one',
  editHint: 'Or go Back to Calibration and edit the tag (Edit, QR code).',
  given: (tags: readonly string[]) =>
    `QR codes given to ${names.format(tags)}. Save the configuration to keep them.`,
  // The label sheet
  printLabels: 'Print QR labels',
  sheetTitle: (line: string) => `QR labels: ${line}`,
  print: 'Print',
  close: 'Close',
  sheetHint:
    'One label per tag with a QR code. Print at 100 % scale (not “fit to page”): each code is then over 30 mm wide, which a phone reads at arm’s length.',
  unsaved: (count: number) =>
    `${count === 1 ? 'One code on these labels is' : `${count} codes on these labels are`} not saved yet: save the configuration before sticking the labels, or scans of them will match no tag.`,
  noLabels: 'No tag has a QR code yet: there is nothing to print.',
  drawing: 'Drawing the QR codes…',
  qrAlt: (tag: string) => `QR code of ${tag}`,
  tooLong: 'Too long for a QR code: shorten it in the tag’s Edit dialog.',
  withoutCode: 'Tags without a QR code (no label)',
  noCode: 'no code',
} as const;
