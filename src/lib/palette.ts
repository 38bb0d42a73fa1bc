/** Spec §3/§9: 48 colours, distinct in hue and lightness, for tags, zones, cameras and series. */
export const palette: readonly string[] = [
  '#e6194b',
  '#3cb44b',
  '#ffe119',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#46f0f0',
  '#f032e6',
  '#bcf60c',
  '#fabebe',
  '#008080',
  '#e6beff',
  '#9a6324',
  '#fffac8',
  '#800000',
  '#aaffc3',
  '#808000',
  '#ffd8b1',
  '#000075',
  '#808080',
  '#ff6f61',
  '#6b5b95',
  '#88b04b',
  '#f7cac9',
  '#92a8d1',
  '#955251',
  '#b565a7',
  '#009b77',
  '#dd4124',
  '#d65076',
  '#45b8ac',
  '#efc050',
  '#5b5ea6',
  '#9b2335',
  '#dfcfbe',
  '#55b4b0',
  '#e15d44',
  '#7fcdcd',
  '#bc243c',
  '#c3447a',
  '#98b4d4',
  '#ff7f50',
  '#2e8b57',
  '#4682b4',
  '#d2691e',
  '#6a5acd',
  '#20b2aa',
  '#b8860b',
];

/**
 * The first palette colour not in `used` (compared case-insensitively); once all 48 are used the
 * palette cycles, so the n-th item still gets a stable colour.
 */
export function nextColor(used: readonly string[]): string {
  const taken = new Set(used.map((colour) => colour.toLowerCase()));
  const free = palette.find((colour) => !taken.has(colour));
  return free ?? (palette[used.length % palette.length] as string);
}
