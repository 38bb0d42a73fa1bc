// What a guesser tries first, refused wherever a password is set (NIST SP 800-63B §5.1.1.2, for
// 21 CFR 11.300): a password of the breach lists, a run of one key or the next ones, or a word of
// this application, also with digits or symbols added at its ends ('Password1!').
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The 49,000 passwords most common in breaches, ranked, lower case (zxcvbn-ts's list, from the
 * xato.net corpus of 10 million leaked passwords; the package is updated with it).
 */
const COMMON = new Set(dictionary['passwords-common']);

/**
 * Words of this application and its published defaults, without spaces: a guesser who knows what
 * it signs in to tries them first (demo-password is the demo data's, printed in the README).
 */
const CONTEXT_WORDS = new Set([
  'lineclearance',
  'lineclearances',
  'clearance',
  'inspection',
  'inspections',
  'inspector',
  'lcmanager',
  'manager',
  'operator',
  'administrator',
  'factory',
  'factorymanager',
  'auditor',
  'password',
  'passwort',
  'demopassword',
  // The create-user form's prefilled password (PREFILLED_PASSWORD), published by the spec.
  'setatfirstsignin',
  'changeme',
  'welcome',
]);

/** Keys in a row: the alphabet, the digits and the letter rows of QWERTY, QWERTZ and AZERTY. */
const RUNS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  '`1234567890-=',
  'qwertyuiop[]\\',
  "asdfghjkl;'",
  'zxcvbnm,./',
  'qwertzuiopü',
  'yxcvbnm',
  'azertyuiop',
  'qsdfghjklm',
  'wxcvbn',
];
const RUNS_BOTH_WAYS = [...RUNS, ...RUNS.map((run) => [...run].reverse().join(''))];

/** One to four characters repeated ('aaaaaaaa', 'abcabcabc'), or any unit that is itself guessable. */
const REPEATED = /^(.+?)\1+$/su;
const SEPARATORS = /[\s._-]+/gu;
/** Digits and symbols at the ends ('1!', '2026'), or symbols only ('12345678!'). */
const NOT_LETTERS_AT_ENDS = /^[^\p{L}]+|[^\p{L}]+$/gu;
const SYMBOLS_AT_ENDS = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

function guessableWord(word: string): boolean {
  if (COMMON.has(word) || CONTEXT_WORDS.has(word)) return true;
  if (word.length >= 3 && RUNS_BOTH_WAYS.some((run) => run.includes(word))) return true;
  const unit = REPEATED.exec(word)?.[1];
  return unit !== undefined && (unit.length <= 4 || guessableWord(unit));
}

/**
 * The forms of `password` compared: itself in lower case, without what its ends add, and each
 * without separators ('Line-Clearance-1' as 'lineclearance'). A form shorter than half the
 * password is not: 'cat' is common, '9481cat7730' is not guessed from it.
 */
function forms(password: string): Set<string> {
  const lower = password.toLowerCase();
  const found = new Set([lower]);
  for (const ends of [SYMBOLS_AT_ENDS, NOT_LETTERS_AT_ENDS]) found.add(lower.replace(ends, ''));
  for (const form of [...found]) found.add(form.replace(SEPARATORS, ''));
  return new Set([...found].filter((form) => form.length >= 3 && form.length * 2 >= lower.length));
}

/** Whether `password` is one a guesser tries first (docs/permissions.md, "Guessable passwords"). */
export function isGuessablePassword(password: string): boolean {
  for (const form of forms(password)) if (guessableWord(form)) return true;
  return false;
}

/** The 400 refusing a guessable password set in `field`, saying the rule without the list. */
export const guessablePasswordRefusal = (field: string) =>
  `${field} is too common or too easy to guess (a well-known password, a run such as 12345678 or qwertyui, or a word of this application, even with digits or symbols added); choose another`;
