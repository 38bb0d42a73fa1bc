import { afterEach, describe, expect, it } from 'vitest';
import { localTime, recordTime, utcOffsetLabel, utcTime } from './record-time.ts';

// Node applies a changed TZ at once, so one file can read the same instant in several zones.
const zoneBefore = process.env.TZ;
const inZone = (zone: string) => {
  process.env.TZ = zone;
};
afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const winter = '2026-11-12T06:30:15.250Z';
const summer = '2026-07-01T23:45:00.000Z';

describe('record times', () => {
  it('names the offset: none, whole hours, half hours, and west of Greenwich with a minus sign', () => {
    inZone('UTC');
    expect(utcOffsetLabel(new Date(winter))).toBe('UTC');
    inZone('Europe/Berlin');
    expect(utcOffsetLabel(new Date(winter))).toBe('UTC+1');
    expect(utcOffsetLabel(new Date(summer))).toBe('UTC+2');
    inZone('Asia/Kolkata');
    expect(utcOffsetLabel(new Date(winter))).toBe('UTC+5:30');
    inZone('America/Sao_Paulo');
    expect(utcOffsetLabel(new Date(winter))).toBe('UTC−3');
  });

  it('shows a local time with its offset, to the minute or the second', () => {
    inZone('Europe/Berlin');
    expect(localTime(winter)).toBe('2026-11-12 07:30 UTC+1');
    expect(localTime(new Date(winter), true)).toBe('2026-11-12 07:30:15 UTC+1');
    expect(localTime(summer)).toBe('2026-07-02 01:45 UTC+2');
  });

  it('shows a UTC time whatever the reader’s zone', () => {
    inZone('Asia/Kolkata');
    expect(utcTime(winter)).toBe('2026-11-12 06:30 UTC');
    expect(utcTime(winter, true)).toBe('2026-11-12 06:30:15 UTC');
  });

  it('gives the record’s time in UTC with the local time beside it only where they differ', () => {
    inZone('UTC');
    expect(recordTime(winter, true)).toBe('2026-11-12 06:30:15 UTC');
    inZone('Europe/Berlin');
    expect(recordTime(winter, true)).toBe('2026-11-12 06:30:15 UTC (07:30:15 UTC+1 local)');
    // Another day locally: the local time carries its date.
    expect(recordTime(summer)).toBe('2026-07-01 23:45 UTC (2026-07-02 01:45 UTC+2 local)');
  });

  it('never shows an unreadable time as a date', () => {
    expect(localTime('not a time')).toBeNull();
    expect(utcTime('2026-13-45T99:00:00Z')).toBeNull();
    expect(recordTime(null)).toBe('—');
    expect(recordTime('garbage')).toBe('—');
  });
});
