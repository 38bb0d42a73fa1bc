import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../types/api.ts';
import { changes, reasonOf } from './audit-trail-section.tsx';

const entry = (newValue: unknown): AuditEntry => ({
  id: 1,
  at: '2026-11-26T10:00:00.000Z',
  actorId: null,
  actorEmail: null,
  action: 'approve',
  entity: 'inspection',
  entityId: null,
  oldValue: null,
  newValue,
  ip: null,
  prevHash: null,
  hash: null,
});

describe('the audit trail viewer', () => {
  it('shows old → new for each changed field only', () => {
    expect(
      changes(
        { status: 'pending', reviewerId: null, notes: 'same' },
        { status: 'approved', reviewerId: 'u1', notes: 'same' },
      ),
    ).toEqual(['status: pending → approved', 'reviewerId: null → u1']);
    expect(changes(null, { name: 'Line 1' })).toEqual(['{"name":"Line 1"}']);
    expect(changes(null, null)).toEqual([]);
    expect(changes({ a: 'x'.repeat(300) }, { a: 'y' })[0]).toMatch(/^a: x{160}… → y$/);
  });

  it('finds the reason where the entry gives one', () => {
    expect(reasonOf(entry({ reason: 'wrong password' }))).toBe('wrong password');
    expect(reasonOf(entry({ signature: { notes: 'Approved by LC Manager' } }))).toBe(
      'Approved by LC Manager',
    );
    expect(reasonOf(entry({ status: 'approved' }))).toBeNull();
    expect(reasonOf(entry('text'))).toBeNull();
  });
});
