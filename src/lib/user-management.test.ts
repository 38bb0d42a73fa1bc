// The web app offers Delete by the server's own rules (server/routes/users.ts): an LC manager does
// not delete an operator who also works on another LC manager's line.
import { describe, expect, it } from 'vitest';
import { deleteBlocker } from './user-management.ts';

const lc = { id: 'lc1', roles: ['lc_manager'] };
const lines = [
  { _id: 'L1', name: 'Blister Line 1', managerId: 'lc1', assignedOperators: [] },
  { _id: 'L2', name: 'Bottling Line 2', managerId: 'lc2', assignedOperators: ['op-listed'] },
];

describe('Delete of an operator, for an LC manager', () => {
  it('is offered when every line of the operator is the caller’s', () => {
    expect(
      deleteBlocker(lc, { _id: 'op', role: 'operator', lineClearanceIds: ['L1'] }, lines),
    ).toBe(null);
  });

  it('is refused, in the server’s words, when another manager’s line has the operator too', () => {
    const refusal =
      'The user also works on Bottling Line 2, a line you do not manage: only an admin or a factory manager changes or deletes the account itself';
    const named = { _id: 'op', role: 'operator', lineClearanceIds: ['L1', 'L2'] };
    expect(deleteBlocker(lc, named, lines)).toBe(refusal);
    // Listed by the other line rather than naming it.
    const listed = { _id: 'op-listed', role: 'operator', lineClearanceIds: ['L1'] };
    expect(deleteBlocker(lc, listed, lines)).toBe(refusal);
    // A line nobody manages is not the caller's either; two lines are named as a list.
    const three = [...lines, { _id: 'L3', name: 'Sachet Line 3', managerId: null }];
    expect(
      deleteBlocker(
        lc,
        { _id: 'op', role: 'operator', lineClearanceIds: ['L1', 'L2', 'L3'] },
        three,
      ),
    ).toBe(
      'The user also works on Bottling Line 2 and Sachet Line 3, lines you do not manage: only an admin or a factory manager changes or deletes the account itself',
    );
    // Admins and factory managers oversee both lines.
    expect(deleteBlocker({ id: 'a', roles: ['admin'] }, named, lines)).toBe(null);
  });
});

describe('Delete of an account that records name', () => {
  const admin = { id: 'a', roles: ['admin'] };
  const counts = {
    inspections: 0,
    videos: 0,
    signatures: 0,
    dispositions: 0,
    deviceRegistrations: 0,
  };

  it('is refused with what names it, as the server would (409)', () => {
    const named = {
      _id: 'op',
      role: 'operator',
      namedIn: { ...counts, inspections: 1, signatures: 2 },
    };
    expect(deleteBlocker(admin, named, [])).toBe(
      'Named in 1 inspection and 2 signatures: deactivate instead',
    );
  });

  it('is offered when no record names it, or the list did not say (counts sent only to managers)', () => {
    expect(deleteBlocker(admin, { _id: 'op', role: 'operator', namedIn: counts }, [])).toBe(null);
    expect(deleteBlocker(admin, { _id: 'op', role: 'operator' }, [])).toBe(null);
  });

  it('is refused for one’s own account first, as the server checks it first', () => {
    const own = { _id: 'a', role: 'admin', namedIn: { ...counts, videos: 4 } };
    expect(deleteBlocker(admin, own, [])).toBe('You cannot delete your own account');
  });
});
