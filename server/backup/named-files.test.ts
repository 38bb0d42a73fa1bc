import { describe, expect, it } from 'vitest';
import { copyValue, lacking, type NamingRows, namedFiles, unnamed } from './named-files.ts';

const none: NamingRows = {
  videos: [],
  predictions: [],
  floorplans: [],
  signatures: [],
  uploads: [],
};
const video = (values: Record<string, string | null>) => ({
  id: null,
  storage_key: null,
  sha256: null,
  size: '0',
  keyframes_key: null,
  keyframe_images_prefix: null,
  ...values,
});

describe('the files the database names', () => {
  const named = namedFiles({
    ...none,
    videos: [
      // Submitted: its key names no file until one arrives.
      video({ id: 'v1', storage_key: 'videos/v1.webm' }),
      // Arrived, with one analysis run's results.
      video({
        id: 'v2',
        storage_key: 'videos/v2/u1.webm',
        sha256: 'a'.repeat(64),
        size: '1000',
        keyframes_key: 'analysis/v2/j-1/keyframes.txt',
        keyframe_images_prefix: 'analysis/v2/j-1/images',
      }),
      // From before files were hashed; ingested results, which may hold no image.
      video({
        id: 'v3',
        storage_key: 'videos/v3.mp4',
        size: '20',
        keyframes_key: 'ingest/v3/r1/keyframes.txt',
        keyframe_images_prefix: 'ingest/v3/r1/images',
      }),
    ],
    predictions: [
      { video_id: 'v2', filename: '3.png' },
      { video_id: 'v3', filename: '1.png' },
    ],
    floorplans: [{ image_key: 'floorplans/now.png' }],
    signatures: [
      { kept: JSON.stringify({ layout: { floorplan: { imageKey: 'floorplans/signed.png' } } }) },
      { kept: JSON.stringify({ layout: { floorplan: null } }) },
      { kept: null },
    ],
    uploads: [
      { storage_key: 'uploads/u2', status: 'receiving' },
      { storage_key: 'uploads/u1', status: 'verified' },
    ],
  });

  it('needs each file a record shows, and names what may be absent', () => {
    expect([...named.files].sort()).toEqual([
      'analysis/v2/j-1/images/3.png',
      'analysis/v2/j-1/keyframes.txt',
      'floorplans/now.png',
      'floorplans/signed.png',
      'ingest/v3/r1/images/1.png',
      'ingest/v3/r1/keyframes.txt',
      'videos/v2/u1.webm',
      'videos/v3.mp4',
    ]);
    expect([...named.folders]).toEqual(['analysis/v2/j-1/images']);
    for (const key of ['videos/v1.webm', 'uploads/u2', 'ingest/v3/r1/images']) {
      expect(named.all.has(key)).toBe(true);
    }
    expect(named.all.has('uploads/u1')).toBe(false);
  });

  it('finds what a backup lacks (a folder without a file as folder/) and files no record names', () => {
    const present = [
      'analysis/v2/j-1/keyframes.txt',
      'analysis/v2/j-1/images/1.png',
      'floorplans/now.png',
      'floorplans/signed.png',
      'ingest/v3/r1/images/1.png',
      'ingest/v3/r1/keyframes.txt',
      'videos/v2/u1.webm',
      'videos/v3.mp4',
      'uploads/u2',
      'floorplans/killed-upload.png',
      'analysis/v2/j-2/images/1.png',
    ];
    expect(lacking(named, present)).toEqual(['analysis/v2/j-1/images/3.png']);
    expect(
      lacking(
        named,
        present.filter((key) => !key.includes('/images/')),
      ),
    ).toEqual([
      'analysis/v2/j-1/images/',
      'analysis/v2/j-1/images/3.png',
      'ingest/v3/r1/images/1.png',
    ]);
    expect(unnamed(named, present)).toEqual([
      'analysis/v2/j-2/images/1.png',
      'floorplans/killed-upload.png',
    ]);
  });

  it('reads values as COPY writes them', () => {
    expect(copyValue('\\N')).toBeNull();
    expect(copyValue('')).toBe('');
    expect(copyValue('a\\tb\\\\c\\nd\\r\\b\\f\\v')).toBe('a\tb\\c\nd\r\b\f\v');
    expect(copyValue('{"a": "x\\\\ny"}')).toBe('{"a": "x\\ny"}');
  });
});
