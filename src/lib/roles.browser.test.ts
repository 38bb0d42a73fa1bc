import { describe, expect, it } from 'vitest';
import { hasAnyRole, primaryRole, roleLabel, roleList, roleSeverity } from './roles.ts';

describe('primaryRole (spec §4 precedence)', () => {
  it('prefers factory_manager, then lc_manager, operator, audit, admin', () => {
    expect(primaryRole(['admin', 'audit', 'operator', 'lc_manager', 'factory_manager'])).toBe(
      'factory_manager',
    );
    expect(primaryRole(['admin', 'audit', 'operator', 'lc_manager'])).toBe('lc_manager');
    expect(primaryRole(['admin', 'audit', 'operator'])).toBe('operator');
    expect(primaryRole(['admin', 'audit'])).toBe('audit');
    expect(primaryRole(['admin'])).toBe('admin');
  });

  it('is null for no roles or only legacy labels', () => {
    expect(primaryRole([])).toBeNull();
    expect(primaryRole(['user', 'manager'])).toBeNull();
  });
});

describe('role helpers', () => {
  it('checks membership against an allowed list', () => {
    expect(hasAnyRole(['audit'], ['lc_manager', 'audit'])).toBe(true);
    expect(hasAnyRole(['operator'], ['admin'])).toBe(false);
    expect(hasAnyRole([], ['admin'])).toBe(false);
  });

  it('labels and colours roles as spec §6 says', () => {
    expect(roleLabel('lc_manager')).toBe('Line Clearance Manager');
    expect(roleLabel('factory_manager')).toBe('Factory Manager');
    expect(roleSeverity('admin')).toBe('danger');
    expect(roleSeverity('factory_manager')).toBe('danger');
    expect(roleSeverity('lc_manager')).toBe('warning');
    expect(roleSeverity('manager')).toBe('warning');
    expect(roleSeverity('audit')).toBe('success');
    expect(roleSeverity('operator')).toBe('info');
    expect(roleSeverity('user')).toBe('secondary');
  });

  it('reads a stored role given as a string or a list', () => {
    expect(roleList('operator')).toEqual(['operator']);
    expect(roleList(['admin', 'audit'])).toEqual(['admin', 'audit']);
    expect(roleList(undefined)).toEqual([]);
  });
});
