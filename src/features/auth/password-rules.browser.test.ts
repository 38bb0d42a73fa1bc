import { describe, expect, it } from 'vitest';
import { passwordChangeProblem } from './password-rules.ts';

describe('change-password validation (spec §5 order and messages)', () => {
  it('asks for all three fields first, even when the others would also fail', () => {
    expect(
      passwordChangeProblem({
        currentPassword: '',
        newPassword: 'short',
        confirmPassword: 'other',
      }),
    ).toEqual({
      severity: 'warn',
      summary: 'Missing fields',
      detail: 'Please fill in all password fields',
      fields: ['currentPassword'],
    });
    expect(
      passwordChangeProblem({ currentPassword: 'x', newPassword: 'abcdefgh', confirmPassword: '' }),
    ).toMatchObject({ summary: 'Missing fields', fields: ['confirmPassword'] });
  });

  it('then checks that the new passwords match, before their length', () => {
    expect(
      passwordChangeProblem({ currentPassword: 'x', newPassword: 'abc', confirmPassword: 'abd' }),
    ).toEqual({
      severity: 'error',
      summary: 'Password mismatch',
      detail: 'New passwords do not match',
      fields: ['confirmPassword'],
    });
  });

  it('then needs at least 8 characters', () => {
    expect(
      passwordChangeProblem({
        currentPassword: 'x',
        newPassword: 'abcdefg',
        confirmPassword: 'abcdefg',
      }),
    ).toEqual({
      severity: 'warn',
      summary: 'Weak password',
      detail: 'Password should be at least 8 characters',
      fields: ['newPassword'],
    });
    expect(
      passwordChangeProblem({
        currentPassword: 'x',
        newPassword: 'abcdefgh',
        confirmPassword: 'abcdefgh',
      }),
    ).toBeNull();
  });
});
