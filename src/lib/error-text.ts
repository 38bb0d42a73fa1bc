/**
 * What a thrown value says, for a message after the app's own words: an Error's message, or its
 * name when the message is empty (a DOMException may carry only 'QuotaExceededError' or
 * 'NotAllowedError', and 'Failed to submit: ' with nothing after it tells nobody anything).
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
