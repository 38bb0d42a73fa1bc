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
  notQueued: 'not queued',
  noJob: (videoStatus: string) => `no job (video ${videoStatus})`,
  openVideo: 'Open video',
  openReport: 'Inspection report',
  signedEvidence: 'Signed: results kept as evidence',
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
