/** Spec §2/§9: the first letters of the name's words, at most 2, upper case. */
export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => Array.from(word)[0] ?? '')
    .join('');
  return Array.from(letters).slice(0, 2).join('').toUpperCase();
}
