import { describe, expect, it } from 'vitest';
import { describeThrown, errorCode } from './errors.ts';

/** What PGlite's file system throws (Emscripten's FS.ErrnoError): no Error, no message. */
const errnoError = (errno: number) => ({ name: 'ErrnoError', errno });

describe('describeThrown', () => {
  it("names an Emscripten ErrnoError by PGlite's errno numbers, not [object Object]", () => {
    expect(describeThrown(errnoError(51))).toBe('ENOSPC: no space left on device');
    expect(errorCode(errnoError(51))).toBe('ENOSPC');
    expect(describeThrown(errnoError(69))).toBe('EROFS: read-only file system');
    expect(describeThrown(errnoError(999))).toBe(
      'file system error 999 (Emscripten errno, PGlite)',
    );
  });

  it("gives an Error's message, a string itself, and anything else inspected", () => {
    const nodeError = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
    });
    expect(describeThrown(nodeError)).toBe('ENOSPC: no space left on device, write');
    expect(errorCode(nodeError)).toBe('ENOSPC');
    expect(describeThrown('plain words')).toBe('plain words');
    expect(describeThrown({ reason: 'odd', at: 3 })).toBe("{ reason: 'odd', at: 3 }");
    expect(describeThrown(undefined)).toBe('undefined');
    expect(errorCode(null)).toBeUndefined();
  });
});
