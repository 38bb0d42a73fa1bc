// The notes of a review signature, shared at runtime by the server's rule and the signing dialog
// (a pure module without imports, so the web app can bundle it).

export type ReviewMeaning = 'approved' | 'rejected';

/**
 * The notes spec §4 writes for each decision. They name the signer's role, not a reason, so
 * neither counts as one where a reason is required (a rejection; an approval over open flags).
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

/** A reason takes at least this many different words: 'ok' or '-' says nothing an auditor can check. */
export const MIN_REASON_WORDS = 3;

// By dictionary, not by spaces: Chinese, Japanese and Thai write a sentence as one run of letters.
// Intl.Segmenter is in Node and in the browsers the app supports (no import: the app bundles this).
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

const words = (notes: string) =>
  new Set(
    Array.from(segmenter.segment(notes.toLowerCase()))
      .filter((segment) => segment.isWordLike)
      .map((segment) => segment.segment),
  );

/** Whether the notes give a reason: three different words or more, and not a spec note. */
export const givesReason = (notes: string) =>
  words(notes).size >= MIN_REASON_WORDS &&
  !Object.values(specNotes).some((note) => bare(note) === bare(notes));
