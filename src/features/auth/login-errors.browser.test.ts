import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { changePasswordErrorMessage, loginErrorMessage } from './login-errors.ts';

describe('login error catalogue (spec §8)', () => {
  it('maps 401, 400, 5xx and everything else', () => {
    expect(loginErrorMessage(401)).toBe('Invalid email or password');
    expect(loginErrorMessage(400)).toBe('Email and password are required');
    expect(loginErrorMessage(500)).toBe('Server error. Please try again later.');
    expect(loginErrorMessage(503)).toBe('Server error. Please try again later.');
    expect(loginErrorMessage(404)).toBe(
      'Login failed. Please check your connection and try again.',
    );
    expect(loginErrorMessage(429)).toBe(
      'Login failed. Please check your connection and try again.',
    );
    // status 0: the network failed before any answer
    expect(loginErrorMessage(0)).toBe('Login failed. Please check your connection and try again.');
  });
});

describe('change-password error catalogue (spec §8)', () => {
  it('401 means a wrong current password; otherwise the server message, then the fallback', () => {
    expect(changePasswordErrorMessage(new ApiError(401, 'x', 'Unauthorized'))).toBe(
      'Current password is incorrect',
    );
    expect(changePasswordErrorMessage(new ApiError(400, 'x', 'newPassword is too long'))).toBe(
      'newPassword is too long',
    );
    expect(changePasswordErrorMessage(new ApiError(500, 'x', null))).toBe(
      'Unable to change password. Please try again later.',
    );
    expect(changePasswordErrorMessage(new Error(''))).toBe('Failed to change password');
  });
});
