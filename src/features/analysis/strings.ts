// Texts of /analysis (the spec names the route and its roles, not its contents).
export const analysisStrings = {
  title: 'Analysis',
  subtitle: 'Recent inspection videos and their analysis: path, keyframes and detections',
  caption: 'Analysis queue',
  loading: 'Loading the analysis queue…',
  empty: 'No inspection videos yet.',
  loadFailed: 'Failed to load analysis queue',
  recorded: 'Recorded',
  line: 'Line',
  operator: 'Operator',
  status: 'Status',
  step: 'Step',
  time: 'Time taken',
  details: 'Details',
  actions: 'Actions',
  unknown: 'Unknown',
  unknownLine: 'Unknown Line',
  /** A finished job's end (its state is the tag beside it). */
  finishedAt: (time: string) => `at ${time}`,
  /** Results that came without a job here (the ingestion API, the demo loader). */
  resultsFrom: (version: string | null) =>
    version ? `results from ${version}; no run recorded here` : 'no run recorded here',
  /** A recording whose file has not arrived: its job is queued when the upload completes. */
  awaitingFile: 'waiting for the file',
  awaitingFileNote:
    'The recording has not finished uploading. The upload goes on from the recording device’s Operator Dashboard (Pending uploads); the analysis starts when the file arrives.',
  notAnalysed: 'not analysed',
  noJobNote: 'No analysis has run or is queued for this video.',
  adminMayRun: 'Re-run starts one.',
  askAdmin: 'An admin can start one here (Re-run).',
  openVideo: 'Open video',
  openReport: 'Inspection report',
  signedEvidence: 'Signed: results kept as evidence',
  /** A signed inspection's video is never analysed again; this one has no results to keep. */
  signedNoResults: 'Signed: not analysed again (the inspection was signed without results)',
  rerun: 'Re-run',
  rerunDone: 'Analysis queued',
  rerunFailed: 'Failed to queue the analysis',
  /** A run replaces the video's results; a signed inspection's video is refused by the server. */
  confirmRerun: (name: string) =>
    `Re-run the analysis of ${name}? The new run replaces this video's keyframes, path and detections.`,
  attempt: (attempt: number, max: number) => `attempt ${attempt} of ${max}`,
  summary: (running: number, queued: number) =>
    running + queued === 0 ? 'No analysis running' : `${running} running, ${queued} queued`,
} as const;

/** What each pipeline step is called on the page. */
export const stepLabels: Record<string, string> = {
  probe: 'Reading the video',
  keyframes: 'Extracting keyframe images',
  path: 'Reconstructing the path',
  detections: 'Detecting objects',
  store: 'Storing the results',
};
