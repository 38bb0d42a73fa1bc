import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { myInspection } from '../../../tests/web/my-inspection-fixture.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import type { MyLine } from '../../types/api.ts';
import { RejectedLines } from './rejected-lines.tsx';

afterEach(cleanup);

const rejectedId = 'd'.repeat(24);
const line = (id: string, name: string, last: MyLine['lastInspection']): MyLine => ({
  line: {
    _id: id,
    name,
    description: '',
    location: '',
    status: 'active',
    managerId: null,
    assignedOperators: [],
    version: 1,
  },
  hasConfiguration: true,
  tagCount: 8,
  hotZoneCount: 5,
  lastInspection: last,
});
const rejected = myInspection(rejectedId, {
  status: 'rejected',
  signature: {
    signerId: 'e'.repeat(24),
    signerName: 'Sofia Lindqvist',
    signerEmail: 'lcmanager@example.com',
    meaning: 'rejected',
    statement: 'Rejected: the line is not clear',
    notes: 'Only 1 of 8 tags scanned: re-walk the line',
    signedAt: '2026-11-20T11:00:00.000Z',
    recordHash: 'a'.repeat(64),
  },
});

describe('lines waiting to be inspected again', () => {
  it('names each line whose last inspection was rejected, with why, and starts it again', async () => {
    await render(
      <RejectedLines
        lines={[
          line('a'.repeat(24), 'Blister Line 1', {
            _id: rejectedId,
            startTime: '2026-11-20T10:10:00.000Z',
            status: 'rejected',
          }),
          line('b'.repeat(24), 'Bottling Line 2', {
            _id: 'f'.repeat(24),
            startTime: '2026-11-21T10:10:00.000Z',
            status: 'approved',
          }),
        ]}
        inspections={[rejected]}
      />,
    );
    const region = page.getByRole('region', { name: 'Action needed' });
    await expect.element(region).toHaveTextContent(/Your last inspection of Blister Line 1 \(/);
    await expect.element(region).toHaveTextContent('Only 1 of 8 tags scanned: re-walk the line');
    expect(region.element().textContent).not.toContain('Bottling Line 2');
    await expect
      .element(region.getByRole('link', { name: 'Inspect again: Blister Line 1' }))
      .toHaveAttribute('href', `/inspection/${'a'.repeat(24)}`);
  });

  it('shows nothing once every line’s last inspection stands', async () => {
    await render(
      <>
        <h1>Operator Dashboard</h1>
        <RejectedLines
          lines={[
            line('a'.repeat(24), 'Blister Line 1', {
              _id: rejectedId,
              startTime: '2026-11-20T10:10:00.000Z',
              status: 'pending',
            }),
          ]}
          inspections={[]}
        />
      </>,
    );
    await expect.element(page.getByRole('heading', { name: 'Operator Dashboard' })).toBeVisible();
    expect(page.getByRole('region', { name: 'Action needed' }).query()).toBeNull();
  });
});
