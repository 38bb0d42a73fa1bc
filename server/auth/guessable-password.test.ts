import { describe, expect, it } from 'vitest';
import { PREFILLED_PASSWORD } from '../schemas/password-rule.ts';
import { guessablePasswordRefusal, isGuessablePassword } from './guessable-password.ts';

/** Each of `passwords` judged as `guessable`, named in a failure. */
function expectEach(passwords: string[], guessable: boolean) {
  for (const password of passwords) expect(isGuessablePassword(password), password).toBe(guessable);
}

describe('isGuessablePassword', () => {
  it('refuses the breach lists’ passwords, in any case', () => {
    expectEach(['12345678', 'iloveyou', 'PASSWORD', 'Sunshine', 'P@ssw0rd'], true);
  });

  it('refuses runs of one key or the next ones, either way', () => {
    expectEach(['aaaaaaaa', 'abcdefgh', 'HGFEDCBA', '87654321', 'qwertyui', 'asdfghjk'], true);
    // A short unit repeated, or a common word repeated.
    expectEach(['abcabcabc', '12121212', 'xyz!xyz!', 'dragondragon'], true);
  });

  it('refuses this application’s words and its published demo password', () => {
    expectEach(['lineclearance', 'Line Clearance', 'LC_Manager', 'demo-password'], true);
    // The create-user form's prefill (spec §9), which anyone can read.
    expectEach([PREFILLED_PASSWORD, 'set-at-first-sign-in1'], true);
  });

  it('sees through digits and symbols added at the ends, and separators', () => {
    expectEach(
      [
        'Password1!',
        '!!Dragon2026',
        'Line-Clearance-2026',
        'operator#1234',
        'qwertyui!!',
        '12345678!',
        'a-b-c-d-e-f',
      ],
      true,
    );
  });

  it('takes what a guesser would not try first', () => {
    expectEach(
      [
        'correct-horse-battery',
        // 'cat' is common, but most of this password is not it.
        '9481cat7730',
        'Tr0ub4dour&3',
        'Sealing-station-7',
        'my-line-clearance-at-dawn',
        'Blister line 1 passed at 6',
      ],
      false,
    );
  });

  it('costs well under a millisecond a check', () => {
    const start = performance.now();
    for (let i = 0; i < 1000; i++) isGuessablePassword(`Sealing-station-${i}-!`);
    expect((performance.now() - start) / 1000).toBeLessThan(1);
  });

  it('says the rule, not the list', () => {
    expect(guessablePasswordRefusal('body.password')).toMatch(
      /^body\.password is too common or too easy to guess \(.*12345678.*\); choose another$/,
    );
  });
});
