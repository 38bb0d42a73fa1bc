// The body walk's rules. Through the routes: U+0000 in limits.test.ts, a direction control in
// capture.test.ts (JSON) and floorplans.test.ts (form fields).
import { describe, expect, it } from 'vitest';
import { BODY_RULES, MAX_NESTING, PARAMETER_RULES, refusedText } from './text-guard.ts';

const refusal = (path: string, code: string) =>
  `${path} contains an invisible direction control (U+${code}); type the text without it`;

describe('direction controls', () => {
  it('are refused in a body: each embedding, override and isolate, in a value or a key', () => {
    const controls = ['202A', '202B', '202C', '202D', '202E', '2066', '2067', '2068', '2069'];
    for (const code of controls) {
      const char = String.fromCodePoint(Number.parseInt(code, 16));
      expect(refusedText({ a: [{ b: `x${char}y` }] }, 'body', BODY_RULES)).toBe(
        refusal('body.a.0.b', code),
      );
      // Named escaped, so the message does not reorder itself.
      expect(refusedText({ [`n${char}`]: 'x' }, 'body', BODY_RULES)).toBe(
        refusal(`body.n\\u${code.toLowerCase()}`, code),
      );
    }
    expect(refusedText({ q: 'a\u0000\u202eb' }, 'body', BODY_RULES)).toBe(
      'body.q must not contain the NUL character (U+0000)',
    );
  });

  it('leave the marks Hebrew and Arabic users type, and parameters alone', () => {
    const typed = { name: 'דנה כהן\u200f (QA)\u200e', note: '\u061cسارة' };
    expect(refusedText(typed, 'body', BODY_RULES)).toBeUndefined();
    expect(refusedText({ q: 'a\u202eb' }, 'query', PARAMETER_RULES)).toBeUndefined();
  });

  it('leave passwords alone: never shown, and one set earlier must still sign its owner in', () => {
    const secrets = { password: 'a\u202eb', currentPassword: '\u2066x', newPassword: 'y\u2069' };
    expect(refusedText(secrets, 'body', BODY_RULES)).toBeUndefined();
    expect(refusedText({ password: 'a\u0000' }, 'body', BODY_RULES)).toBe(
      'body.password must not contain the NUL character (U+0000)',
    );
  });
});

describe('the walk', () => {
  it('goes through an array by index and never lists its indices as keys', () => {
    // A capture body holds millions of numbers: listing each index as a key, and visiting each
    // number, cost an operator's single request 45 s of the server's only thread and 3 GB.
    let listed = 0;
    const samples = new Proxy([1, 2, 'a\u202eb'], {
      ownKeys(target) {
        listed++;
        return Reflect.ownKeys(target);
      },
    });
    expect(refusedText({ motion: { t: samples } }, 'body', BODY_RULES)).toBe(
      refusal('body.motion.t.2', '202E'),
    );
    expect(listed).toBe(0);
  });
});

describe('NFC', () => {
  it('stores each string of a body in NFC, nested too, but a password as typed', () => {
    const body = {
      name: 'Cafe\u0301',
      tags: [{ label: 'Ha\u0308lle 2' }, 'Zoe\u0308'],
      newPassword: 'Cafe\u0301-secret',
    };
    expect(refusedText(body, 'body', BODY_RULES, true)).toBeUndefined();
    expect(body).toEqual({
      name: 'Caf\u00e9',
      tags: [{ label: 'H\u00e4lle 2' }, 'Zo\u00eb'],
      newPassword: 'Cafe\u0301-secret',
    });
    // Without it (parameters and queries, which select), nothing is changed.
    const query = { q: 'Cafe\u0301' };
    expect(refusedText(query, 'query', PARAMETER_RULES)).toBeUndefined();
    expect(query.q).toBe('Cafe\u0301');
  });
});

describe('nesting', () => {
  const nested = (levels: number) => {
    let value: unknown = 'leaf';
    for (let level = 0; level < levels; level++) value = { a: value };
    return value;
  };

  it(`refuses a value nested deeper than ${MAX_NESTING} levels, naming where, without recursion`, () => {
    expect(refusedText({ extra: nested(MAX_NESTING) }, 'body', BODY_RULES)).toBeUndefined();
    const refused = refusedText({ extra: nested(MAX_NESTING + 1) }, 'body', BODY_RULES);
    expect(refused).toBe(
      `body.extra${'.a'.repeat(MAX_NESTING)} is nested more than ${MAX_NESTING} levels deep`,
    );
    // 100,000 levels: JSON.stringify of it overflows the stack; the walk does not.
    expect(refusedText(nested(100_000), 'body', BODY_RULES)).toMatch(/nested more than 32/);
  });
});
