import { afterEach, describe, expect, it } from 'vitest';
import { loginPath, pageToReturnTo, readLoginQuery, safeReturnPath } from './login-return.ts';

const testPage = window.location.href;

afterEach(() => {
  window.history.replaceState(null, '', testPage);
});

describe('the page a sign-in returns to', () => {
  it('takes a path of this site, with its query', () => {
    expect(safeReturnPath('/inspection-report/abc?tab=photos')).toBe(
      '/inspection-report/abc?tab=photos',
    );
  });

  it.each([
    null,
    '',
    'https://evil.example/admin',
    '//evil.example/admin',
    '/\\evil.example/admin',
    '/\t/evil.example/admin',
    '/\n/evil.example/admin',
    'javascript:alert(1)',
    'admin',
    '/login?next=%2Fadmin',
  ])('ignores %j: no path of this site, or /login itself (an open-redirect guard)', (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it('puts the page after the reason /login shows, and leaves out one it ignores', () => {
    expect(loginPath('/reports?from=2026-01-01', 'session=ended')).toBe(
      '/login?session=ended&next=%2Freports%3Ffrom%3D2026-01-01',
    );
    expect(loginPath('//evil.example', 'session=ended')).toBe('/login?session=ended');
    expect(loginPath(null)).toBe('/login');
  });

  it('reads it back apart from the reason', () => {
    expect(readLoginQuery('session=other-tab&next=%2Freports')).toEqual({
      next: '/reports',
      reason: 'session=other-tab',
    });
    expect(readLoginQuery('next=https%3A%2F%2Fevil.example')).toEqual({ next: null, reason: '' });
  });

  it('keeps the page /login already returns to (several calls answered 401 at once)', () => {
    window.history.replaceState(null, '', '/reports?line=2');
    expect(pageToReturnTo()).toBe('/reports?line=2');
    window.history.replaceState(null, '', '/login?session=ended&next=%2Freports%3Fline%3D2');
    expect(pageToReturnTo()).toBe('/reports?line=2');
  });
});
