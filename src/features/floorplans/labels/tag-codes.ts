// The QR code a new tag is given, and what the review step says about codes (docs/floorplans.md
// "Tag codes and labels"). A scan is matched to a tag by its code alone, trimmed and exact
// (docs/capture.md): a tag without one can never be scanned, and a code two tags share ticks only
// the first of them.
import type { Tag } from '../../../types/api.ts';

/**
 * Digits and capitals without 0/O, 1/I/L and U, so a code read off a label is typed back right.
 * Capitals, digits and '-' keep the whole code in the QR alphanumeric mode: fewer, larger modules
 * on the label than the byte mode lower case would need.
 */
const RANDOM_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RANDOM_LENGTH = 5;
const LINE_PART_LENGTH = 16;

/** A default code: line part, 'T' and the tag's number, then the random part. */
export const defaultCodePattern = /^[A-Z0-9]+(?:-[A-Z0-9]+)*-T\d+-[2-9A-HJKMNP-TV-Z]{5}$/;

/** The line's name as capitals, digits and single dashes, at most 16 characters ('LINE' if none). */
export function linePart(lineName: string): string {
  const part = lineName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, LINE_PART_LENGTH)
    .replace(/-+$/, '');
  return part || 'LINE';
}

/** Five characters of RANDOM_ALPHABET from the browser's cryptographic generator, unbiased. */
export function randomPart(): string {
  // 240 is the largest multiple of 30 within a byte: bytes above it are drawn again.
  const limit = 256 - (256 % RANDOM_ALPHABET.length);
  let part = '';
  while (part.length < RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(RANDOM_LENGTH * 2))) {
      if (byte < limit && part.length < RANDOM_LENGTH) {
        part += RANDOM_ALPHABET[byte % RANDOM_ALPHABET.length];
      }
    }
  }
  return part;
}

/** The code as a scan is compared with it, or null when the tag has none. */
export const codeOf = (tag: Tag): string | null => tag.qrCode?.trim() || null;

/**
 * A code for tag number `tagNumber` of the line: 'BLISTER-LINE-1-T4-K7QX2'. The line part and the
 * number make it readable on the line; the random part keeps two lines apart, even two named
 * alike, which a scan could not tell apart otherwise (the app cannot read every other line's
 * codes to compare). Never one of `taken` (this line's codes).
 */
export function proposeTagCode(
  lineName: string,
  tagNumber: number,
  taken: Iterable<string>,
  random: () => string = randomPart,
): string {
  const used = new Set(Array.from(taken, (code) => code.trim()));
  // A taken code comes back about once in 24 million draws: a few tries always end it.
  for (let attempt = 0; attempt < 100; attempt++) {
    const code = `${linePart(lineName)}-T${tagNumber}-${random()}`;
    if (!used.has(code)) return code;
  }
  throw new Error('No free tag code after 100 draws');
}

/** The number in a default name ('Tag 4' → 4), else the tag's place in the list. */
export function tagNumberOf(tag: Tag, index: number): number {
  const match = /^Tag (\d+)$/.exec(tag.name.trim());
  return match ? Number(match[1]) : index + 1;
}

/**
 * 'Give codes to tags without one': each tag without a code gets a default one; the others are
 * left as they are. Answers the tags and the names of those given a code.
 */
export function withMissingCodes(
  tags: readonly Tag[],
  lineName: string,
  random?: () => string,
): { tags: Tag[]; given: string[] } {
  const taken = tags.flatMap((tag) => codeOf(tag) ?? []);
  const given: string[] = [];
  const next = tags.map((tag, index) => {
    if (codeOf(tag)) return tag;
    const qrCode = proposeTagCode(lineName, tagNumberOf(tag, index), taken, random);
    taken.push(qrCode);
    given.push(tag.name);
    return { ...tag, qrCode };
  });
  return { tags: next, given };
}

export interface CodeProblems {
  /** Names of the tags without a code. */
  missing: string[];
  /** Codes more than one tag has, with their tags' names in list order (a scan ticks the first). */
  shared: { code: string; names: string[] }[];
}

export function codeProblems(tags: readonly Tag[]): CodeProblems {
  const byCode = new Map<string, string[]>();
  const missing: string[] = [];
  for (const tag of tags) {
    const code = codeOf(tag);
    if (!code) missing.push(tag.name);
    else byCode.set(code, [...(byCode.get(code) ?? []), tag.name]);
  }
  const shared = [...byCode]
    .filter(([, names]) => names.length > 1)
    .map(([code, names]) => ({ code, names }));
  return { missing, shared };
}

/**
 * Codes of `tags` that the saved configuration has no tag with: labels printed for them match
 * nothing until the configuration is saved.
 */
export function unsavedCodes(tags: readonly Tag[], saved: readonly Tag[] | null): string[] {
  const stored = new Set((saved ?? []).flatMap((tag) => codeOf(tag) ?? []));
  return tags.flatMap((tag) => {
    const code = codeOf(tag);
    return code && !stored.has(code) ? [code] : [];
  });
}
