import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { createUser, type TestUser } from '../test/fixtures.ts';
import { NonBlank } from './common.ts';

/** Characters that show nothing, or look like a space, when alone. */
const invisible = [
  ...['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\ufeff'],
  ...['\u202a', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'],
  ...['\u3164', '\u115f', '\u1160', '\uffa0', '\u2800', '\u00ad', '\u034f', '\u061c', '\u180e'],
  // Marks alone: variation selectors, the Mongolian and Khmer invisible signs, a combining accent.
  ...['\ufe0f', '\u{e0100}', '\u180b', '\u17b4', '\u0300', '\u034f\ufe0f'],
];

describe('NonBlank', () => {
  it('counts invisible characters as blank, alone or with spaces', () => {
    for (const char of invisible) {
      const code = char.codePointAt(0)?.toString(16);
      expect(Value.Check(NonBlank(200), char), code).toBe(false);
      expect(Value.Check(NonBlank(200), ` ${char}${char} `), code).toBe(false);
      expect(Value.Check(NonBlank(200), `${char}A`), code).toBe(true);
    }
    // A decomposed ë (e and a combining diaeresis) and Devanagari (a consonant and its vowel sign).
    for (const name of ['A', 'Zoë', 'Zoe\u0308', '张伟', 'שרה', '·', 'कि']) {
      expect(Value.Check(NonBlank(200), name), name).toBe(true);
    }
  });
});

describe('a user named with invisible characters only', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await build();
    admin = await createUser(t, 'admin', ['admin']);
  });
  afterAll(() => t.close());

  it('is refused: it would show as a card without a name', async () => {
    for (const name of ['\u3164', ' \u2800 ', '\u115f\u1160', '\u00ad']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: admin.auth,
        payload: { name, email: 'blank@plant.example', password: 'long-enough-pw' },
      });
      expect(res.json(), JSON.stringify(name)).toEqual({ message: 'body.name must not be blank' });
    }
  });
});
