const units = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** Spec §9: Bytes, KB, MB, GB with base 1024 and at most 2 decimals; GB is the largest unit. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) {
    throw new RangeError(`File size must be a non-negative number of bytes, got ${bytes}`);
  }
  if (bytes === 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** Math.max(exponent, 0);
  // parseFloat drops trailing zeros: 1536 bytes reads '1.5 KB', not '1.50 KB'.
  return `${Number.parseFloat(value.toFixed(2))} ${units[Math.max(exponent, 0)]}`;
}
