import { describe, expect, it } from 'vitest';
import { fakeToken } from '../../tests/web/render.tsx';
import { decodeToken } from './jwt.ts';

describe('decodeToken (payload read without verifying)', () => {
  it('reads id, name, email and roles, including non-ASCII names', () => {
    const token = fakeToken({
      id: 'u1',
      name: 'Tomás Łukasz',
      email: 't@example.com',
      roles: ['operator'],
      exp: 1,
    });
    expect(decodeToken(token)).toEqual({
      id: 'u1',
      name: 'Tomás Łukasz',
      email: 't@example.com',
      roles: ['operator'],
    });
  });

  it('names what is wrong with a bad token', () => {
    expect(() => decodeToken('not-a-jwt')).toThrow('Login token is not a JWT (no payload segment)');
    expect(() => decodeToken('a.%%%.c')).toThrow('not base64url-encoded JSON');
    expect(() => decodeToken(fakeToken({ name: 'x', email: 'e', roles: [] }))).toThrow('has no id');
    expect(() =>
      decodeToken(fakeToken({ id: 'u', name: 'x', email: 'e', roles: 'admin' })),
    ).toThrow('roles must be a list of strings');
  });
});
