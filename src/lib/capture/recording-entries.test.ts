// The recording's entries and QR codes are checked by the server's own rules before anything is
// recorded: what the server would refuse (server/http/text-guard.ts) must never reach the upload.
import { describe, expect, it } from 'vitest';
import { BODY_RULES, refusedText } from '../../../server/http/text-guard.ts';
import { entryProblem, notesProblem, recordableCode } from './recording-entries.ts';

describe('what the operator types', () => {
  it('is refused in words where the server would refuse it', () => {
    expect(entryProblem('batchLeaving', '\u202e1402-AP')).toBe(
      'Batch leaving the line contains an invisible direction control (U+202E); type the text without it',
    );
    expect(notesProblem('Done\u2066.')).toBe(
      'Operator notes contains an invisible direction control (U+2066); type the text without it',
    );
    expect(entryProblem('batchComing', 'B\u0000')).toBe(
      'Batch coming next must not contain a NUL character (U+0000)',
    );
    // Right-to-left marks are what Hebrew and Arabic users type: the server takes them.
    expect(entryProblem('productComing', 'דנה\u200f')).toBeNull();
  });
});

describe('a QR code as the recording keeps it', () => {
  it('is always text the server stores, whatever the label printed', () => {
    for (const printed of ['\u202e1402-AP', 'a\u0000b', 'x'.repeat(3000), 'TAG-7']) {
      const kept = recordableCode(printed);
      expect(refusedText({ scans: [{ code: kept }] }, 'body', BODY_RULES)).toBeUndefined();
      expect(kept.length).toBeLessThanOrEqual(1000);
    }
    expect(recordableCode('\u202e1402-AP')).toBe('\\u202e1402-AP');
    expect(recordableCode('TAG-7')).toBe('TAG-7');
  });
});
