// The notes of a review signature, shared at runtime by the server's rule and the signing dialog
// (a pure module without imports, so the web app can bundle it).

export type ReviewMeaning = 'approved' | 'rejected';

/**
 * The notes spec §4 writes for each decision. They name the signer's role, not a reason, so they
 * do not count as one where a reason is required (a rejection; an approval over open flags).
 */
export const specNotes: Record<ReviewMeaning, string> = {
  approved: 'Approved by LC Manager',
  rejected: 'Rejected by LC Manager',
};

/** Notes as compared with the spec's: case, spaces and a closing stop aside. */
const bare = (notes: string) =>
  notes
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
    .toLowerCase();

/** Whether the notes give a reason: not blank, and not only the spec's note for the decision. */
export const givesReason = (notes: string, meaning: ReviewMeaning) =>
  bare(notes) !== '' && bare(notes) !== bare(specNotes[meaning]);
