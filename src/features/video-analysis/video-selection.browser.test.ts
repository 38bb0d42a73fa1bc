import { describe, expect, it } from 'vitest';
import type { Video } from '../../types/api.ts';
import { isRecordId, matchVideo, selectionStep } from './video-selection.ts';

const video = (id: string): Video => ({
  _id: id,
  id,
  filename: `${id}.mp4`,
  timestamp: '2026-11-03T08:15:00.000Z',
  userId: null,
  operatorId: null,
  deviceId: null,
  lineClearanceId: null,
  path: { video: `/api/videos/${id}.mp4`, keyframesData: `/api/keyframes/${id}.txt` },
  status: 'completed',
  size: 1,
  fileSize: 1,
  duration: 40,
  metadata: { device: null, location: null, duration: 40 },
  relatedData: { predictions: 0, reports: 0, floorplanConfigs: 0, floorplans: 0 },
});

const first = video('aaaa00000000000000000001');
const second = video('bbbb00000000000000000002');
const third = video('bbbb00000000000000000022');
const list = [first, second, third];

describe('matchVideo (spec §4: exact, then containment)', () => {
  it('prefers the exact id over an earlier id that merely contains the reference', () => {
    const longer = video('ab12');
    const exact = video('ab1');
    expect(matchVideo([longer, exact], 'ab1')).toBe(exact);
    expect(matchVideo([longer, exact], 'ab12')).toBe(longer);
  });

  it('falls back to the first id containing the reference, or contained in it', () => {
    expect(matchVideo(list, 'bbbb0000')).toBe(second);
    expect(matchVideo(list, '00000000000022')).toBe(third);
    expect(matchVideo(list, `${first.id}.mp4`)).toBe(first);
  });

  it('matches nothing for an empty or unknown reference', () => {
    expect(matchVideo(list, '')).toBeNull();
    expect(matchVideo(list, 'cccc')).toBeNull();
    expect(matchVideo([], first.id)).toBeNull();
  });
});

describe('isRecordId', () => {
  it('accepts 24 hex digits only (what GET /api/videos/{id} answers as JSON)', () => {
    expect(isRecordId('ABCDEF000000000000000001')).toBe(true);
    expect(isRecordId('abcdef00000000000000001')).toBe(false);
    expect(isRecordId('lc1-20261103-081500.mp4')).toBe(false);
    expect(isRecordId('gggggg000000000000000001')).toBe(false);
  });
});

describe('selectionStep (spec §4 videoId fallbacks)', () => {
  it('selects nothing without a videoId, and waits for the list with one', () => {
    expect(selectionStep(list, null, null)).toEqual({ step: 'none' });
    expect(selectionStep(null, first.id, null)).toEqual({ step: 'wait' });
  });

  it('selects an exact or containing match from the list', () => {
    expect(selectionStep(list, third.id, null)).toEqual({ step: 'select', video: third });
    expect(selectionStep(list, 'aaaa', null)).toEqual({ step: 'select', video: first });
  });

  it('fetches a record id that is not in the list, then selects what came back', () => {
    const missing = video('dddd00000000000000000004');
    expect(selectionStep(list, missing.id, null)).toEqual({ step: 'fetch', id: missing.id });
    expect(selectionStep(list, missing.id, { ref: missing.id, video: missing })).toEqual({
      step: 'select',
      video: missing,
    });
  });

  it('keeps a fetched video selected when the URL moves to its own id', () => {
    const fetched = video('dddd00000000000000000004');
    const answer = { ref: 'DDDD00000000000000000004', video: fetched };
    expect(selectionStep(list, fetched.id, answer)).toEqual({ step: 'select', video: fetched });
  });

  it('falls back to the first video when the fetch failed or the reference is no id', () => {
    const ref = 'eeee00000000000000000005';
    expect(selectionStep(list, ref, { ref, video: null })).toEqual({
      step: 'fallback',
      video: first,
    });
    expect(selectionStep(list, 'no-such-video', null)).toEqual({ step: 'fallback', video: first });
    expect(selectionStep([], 'no-such-video', null)).toEqual({ step: 'fallback', video: null });
  });

  it('fetches again for another reference, ignoring an older answer', () => {
    const ref = 'eeee00000000000000000005';
    const older = { ref: 'ffff00000000000000000006', video: null };
    expect(selectionStep(list, ref, older)).toEqual({ step: 'fetch', id: ref });
  });
});
