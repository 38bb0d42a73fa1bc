/**
 * tus chunk size: about an eighth of the file, from 128 KiB to 8 MiB. A cut costs at most one
 * chunk resent, and the progress moves in steps a person can see.
 */
export const uploadChunkBytes = (size: number) =>
  Math.min(8 * 1024 * 1024, Math.max(128 * 1024, Math.ceil(size / 8)));
