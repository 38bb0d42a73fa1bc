// The seam between capture and analysis: when an upload completes and its hash verifies, capture
// hands the video to the queue. server/analysis/runner.ts implements it with durable jobs.

export interface AnalysisQueue {
  /**
   * Asks for the video to be analysed. Resolves once the request is stored (durably, for a real
   * queue), not when the analysis ends. `requestedBy` is the user id, or null for the server.
   */
  enqueue(videoId: string, requestedBy: string | null): Promise<unknown>;
}
