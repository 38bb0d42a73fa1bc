import { describe, expect, it } from 'vitest';
import {
  emailInPasswordProblem,
  nameInPasswordProblem,
  ownNewPasswordProblem,
  samePasswordProblem,
} from './password-rule.ts';

const owner = { email: 'd.okafor@plant.example', name: "Daniel O'Kafor-Ünal" };
const problem = (newPassword: string, currentPassword = 'Temp-pass-123') =>
  ownNewPasswordProblem({ currentPassword, newPassword }, owner);

describe('ownNewPasswordProblem', () => {
  it('refuses the current password, in any case', () => {
    expect(problem('Temp-pass-123')).toBe(samePasswordProblem);
    // Whoever chose it would try its case changes first (an acceptance walk did).
    expect(problem('temp-pass-123')).toBe(samePasswordProblem);
    expect(problem('Temp-pass-1234')).toBeNull();
  });

  it('refuses the email and its local part, in any case', () => {
    for (const password of ['d.okafor@plant.example', 'xx-D.OKAFOR-2026']) {
      expect(problem(password), password).toBe(emailInPasswordProblem);
    }
  });

  it('refuses the name and its words of 3 characters or more, in any case', () => {
    for (const password of ['DANIEL-2026-line', 'kafor-on-the-line', 'ünal-line-2026']) {
      expect(problem(password), password).toBe(nameInPasswordProblem);
    }
    // 'O' is too short to refuse, and so is the part before a short address's @.
    expect(problem('Oscar-line-2026')).toBeNull();
    expect(
      ownNewPasswordProblem(
        { currentPassword: 'x', newPassword: 'bo-and-yu-1' },
        { email: 'bo@plant.example', name: 'Bo Yu' },
      ),
    ).toBeNull();
  });
});
