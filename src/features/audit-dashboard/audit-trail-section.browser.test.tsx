import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { LONGWORD } from '../../../tests/web/long-text.ts';
import { cleanup, render } from '../../../tests/web/render.tsx';
import { signIn, signOut } from '../../stores/session.ts';
import type { AuditEntry } from '../../types/api.ts';
import { AuditTrailSection, changes } from './audit-trail-section.tsx';
import './audit-dashboard.css';

const approval: AuditEntry = {
  id: 7,
  at: '2026-11-20T10:35:00.125Z',
  actorId: 'a'.repeat(24),
  actorEmail: 'lc.manager@example.com',
  action: 'approve',
  entity: 'inspection',
  entityId: 'b'.repeat(24),
  oldValue: { status: 'pending' },
  newValue: { status: 'approved' },
  ip: '127.0.0.1',
  reason: null,
  prevHash: 'c'.repeat(64),
  hash: 'd'.repeat(64),
};

/** A signature's value, with notes longer than a line. */
const signature = {
  notes:
    'The line was seen clear after the debris was removed from under the case packer; the reject bin, the carton chute and the labeller magazine were emptied and checked twice',
  meaning: 'approved',
  signedAt: '2026-11-20T10:35:00.125Z',
  signerId: 'a'.repeat(24),
  statement: 'Approved: the line is clear for the next batch',
  signerName: 'Lena Manager',
  recordHash: 'e'.repeat(64),
};
const signedApproval: AuditEntry = {
  ...approval,
  id: 8,
  oldValue: { status: 'pending', reviewedAt: null },
  newValue: { status: 'approved', reviewedAt: '2026-11-20T10:35:00.125Z', signature },
  reason: signature.notes,
};

const lines = (oldValue: unknown, newValue: unknown) =>
  changes(oldValue, newValue).map((change) => change.line);

const signInAuditor = () =>
  signIn('token', { id: 'u1', name: 'Ada Auditor', email: 'audit@example.com', roles: ['audit'] });

/** Answers the trail's calls and keeps each query the section sent. */
function stubTrail(listed: AuditEntry[] = [signedApproval, approval]) {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), window.location.origin);
    if (url.pathname === '/api/audit-log') queries.push(url.searchParams);
    const body =
      url.pathname === '/api/audit-log/facets'
        ? { actions: ['approve', 'create', 'login'], entities: ['inspection', 'user'] }
        : url.pathname === '/api/audit-log/verify'
          ? {
              ok: false,
              checked: 9,
              headHash: null,
              firstBroken: { id: 7, problem: 'hash' },
              brokenCount: 2,
              broken: [
                { id: 7, problem: 'hash' },
                { id: 9, problem: 'link' },
              ],
            }
          : url.pathname === '/api/audit-log'
            ? url.searchParams.get('action') || url.searchParams.get('before')
              ? listed
              : []
            : null;
    return new Response(JSON.stringify(body), {
      status: body ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return queries;
}

/** The section at `path` (its filters live in the URL), keeping the addresses it goes to. */
async function renderSection(path = '/audit') {
  const memory = memoryLocation({ path, record: true });
  await render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <AuditTrailSection />
    </Router>,
  );
  return memory;
}

afterEach(async () => {
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('the audit trail viewer', () => {
  it('shows old → new for each changed field only, with one mark for no value', () => {
    expect(
      lines(
        { status: 'pending', reviewerId: null, notes: 'same', cleared: '' },
        { status: 'approved', reviewerId: 'u1', notes: 'same', cleared: null, signature: '' },
      ),
    ).toEqual(['status: pending → approved', 'reviewerId: — → u1']);
    expect(lines({ a: null }, { b: { x: 1 } })).toEqual(['b.x: — → 1']);
    // A record created or removed reads as its fields, the empty ones left out.
    expect(lines(null, { name: 'Line 1', reason: 'x', note: null, tags: ['a'] })).toEqual([
      'name: Line 1',
      'tags: ["a"]',
    ]);
    expect(lines({ name: 'Line 1' }, null)).toEqual(['name: Line 1 → —']);
    expect(lines(null, 'logged in')).toEqual(['logged in']);
    expect(lines(null, null)).toEqual([]);
    expect(lines({ a: 'x'.repeat(300) }, { a: 'y' })[0]).toMatch(/^a: x{160}… → y$/);
  });

  it('keeps the whole value of a line it cuts', () => {
    expect(changes({ a: 'x' }, { a: 'y' })[0]?.full).toBeNull();
    expect(changes({ a: 'x'.repeat(300) }, { a: 'y' })[0]?.full).toEqual({
      old: 'x'.repeat(300),
      new: 'y',
    });
    // A nested record (a signature) reads field by field, each cut on its own.
    const created = changes(null, { signature });
    expect(created.map((change) => change.line)).toContain('signature.signerName: Lena Manager');
    expect(created[0]?.line).toMatch(/^signature\.notes: The line .{151}…$/);
    expect(created[0]?.full).toEqual({ new: signature.notes });
    const signed = changes({ status: 'pending' }, { status: 'pending', signature });
    expect(signed.map((change) => change.line)).toContain(
      `signature.recordHash: — → ${signature.recordHash}`,
    );
    expect(signed[0]?.full).toEqual({ old: '—', new: signature.notes });
  });

  it('offers the actions and object types the trail holds, and filters by the one chosen', async () => {
    signInAuditor();
    const queries = stubTrail();
    await renderSection();
    await expect.element(page.getByText('No entries match these filters.')).toBeVisible();
    const action = page.getByLabelText('Action');
    await expect.element(action.getByRole('option', { name: 'login' })).toBeInTheDocument();
    await expect
      .element(page.getByLabelText('Object type').getByRole('option', { name: 'user' }))
      .toBeInTheDocument();
    await action.selectOptions('approve');
    await expect.poll(() => queries.at(-1)?.get('action')).toBe('approve');
    // The record's clock (the test browser runs in UTC, so no local time beside it).
    await expect
      .element(page.getByRole('rowheader').first())
      .toHaveTextContent('2026-11-20 10:35:00 UTC');
    await expect.element(page.getByText('status: pending → approved').first()).toBeVisible();
    await action.selectOptions('All actions');
    await expect.poll(() => queries.at(-1)?.has('action')).toBe(false);
  });

  it('opens a cut value whole from the keyboard, and shows the entry’s reason', async () => {
    signInAuditor();
    stubTrail();
    await renderSection();
    await page.getByLabelText('Action').selectOptions('approve');
    const row = page.getByRole('row').filter({ hasText: 'signature.meaning:' });
    await expect.element(row).toBeVisible();
    await expect
      .element(row.getByText(`signature.recordHash: — → ${signature.recordHash}`))
      .toBeVisible();
    await expect.element(row.getByText('reviewedAt: — → 2026-11-20T10:35:00.125Z')).toBeVisible();
    expect(row.element().textContent).not.toMatch(/null/);
    await expect.element(row.getByRole('cell', { name: signature.notes })).toBeVisible();
    // The disclosure is a focusable summary: Enter opens it with the whole notes, Enter closes it.
    const summary = row.getByText(/^signature\.notes: — → /);
    (summary.element() as HTMLElement).focus();
    expect(document.activeElement?.tagName).toBe('SUMMARY');
    const details = summary.element().closest('details') as HTMLDetailsElement;
    const whole = details.querySelector('dd:last-of-type pre') as HTMLElement;
    expect(whole.checkVisibility()).toBe(false);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => whole.checkVisibility()).toBe(true);
    expect(whole.textContent).toBe(signature.notes);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => whole.checkVisibility()).toBe(false);
    // An entry without a reason shows the one mark for no value.
    const plain = page.getByRole('row').filter({ hasText: 'status: pending → approved' }).last();
    await expect.element(plain.getByRole('cell').last()).toHaveTextContent('—');
  });

  it('shows a filter value from the address that the trail does not hold, not All', async () => {
    signInAuditor();
    stubTrail();
    await renderSection('/audit?action=bogus&entity=inspection');
    await expect.element(page.getByLabelText('Action')).toHaveValue('bogus');
    await expect.element(page.getByLabelText('Object type')).toHaveValue('inspection');
  });

  it('says which numbers no entry has, between the entries, in the whole trail only', async () => {
    signInAuditor();
    stubTrail([
      { ...approval, id: 35 },
      { ...approval, id: 2 },
      { ...approval, id: 1 },
    ]);
    await renderSection('/audit?before=40');
    const gap =
      'No entry 3–34: numbers of changes that rolled back or were skipped after a restart; Verify trail checks that none is missing';
    await expect.element(page.getByRole('row').filter({ hasText: 'Entry 35' })).toBeVisible();
    const rows = page.getByRole('row').elements();
    const texts = rows.map((row) => row.textContent ?? '');
    const at = texts.findIndex((text) => text.includes('Entry 35'));
    expect(texts[at + 1]).toBe(gap);
    expect(texts[at + 2]).toContain('Entry 2');
    expect(texts.filter((text) => text.startsWith('No entry'))).toHaveLength(1);
    await cleanup();
    // Filtered, the entries between are those the filter leaves out.
    stubTrail([
      { ...approval, id: 35 },
      { ...approval, id: 2 },
    ]);
    await renderSection('/audit?action=approve');
    await expect.element(page.getByRole('row').filter({ hasText: 'Entry 35' })).toBeVisible();
    expect(page.getByText(/No entry/).elements()).toHaveLength(0);
  });

  it('takes the auditor to the entry where the chain breaks, and marks it', async () => {
    signInAuditor();
    const queries = stubTrail();
    const memory = await renderSection();
    await page.getByLabelText('Object id').fill('x');
    await page.getByRole('button', { name: 'Verify trail' }).click();
    await expect
      .element(page.getByRole('status').filter({ hasText: /broken at entry/ }))
      .toHaveTextContent(/broken at entry 7: its content no longer matches its hash/);
    // Every entry that does not verify, past the first break.
    await expect
      .element(page.getByText(/^2 of 9 entries do not verify/))
      .toHaveTextContent('2 of 9 entries do not verify: 7 (hash), 9 (link).');
    await page.getByRole('button', { name: 'Show entry 7' }).click();
    // The page that starts at entry 7, whatever was filtered before.
    await expect.poll(() => queries.at(-1)?.toString()).toBe('limit=50&before=8');
    expect(memory.history).toEqual(['/audit?before=8']);
    const row = page.getByRole('row').filter({ hasText: 'Entry 7' });
    await expect.element(row).toHaveTextContent(/Entry 7 · the chain breaks here/);
    expect(row.element().className).toBe('audit-broken');
    await expect
      .element(page.getByRole('row').filter({ hasText: 'Entry 8' }))
      .not.toHaveTextContent(/breaks here/);
  });

  it('pages by keyboard: a step with nowhere to go keeps the focus, and each page is said', async () => {
    signInAuditor();
    const page1 = Array.from({ length: 50 }, (_, i) => ({ ...approval, id: 100 - i }));
    let verified: (answer: Response) => void = () => {};
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(String(input), window.location.origin);
      if (url.pathname === '/api/audit-log/verify') {
        return new Promise<Response>((resolve) => {
          verified = resolve;
        });
      }
      const body =
        url.pathname === '/api/audit-log/facets'
          ? { actions: [], entities: [] }
          : url.searchParams.get('entityId')
            ? []
            : url.searchParams.get('before')
              ? [approval]
              : page1;
      return new Response(JSON.stringify(body), { status: 200 });
    });
    await renderSection();
    const status = page.getByRole('status').filter({ hasText: /^(Page|No entries)/ });
    await expect.element(status).toHaveTextContent('Page 1: 50 entries');
    const older = page.getByRole('button', { name: 'Older entries' });
    await expect
      .element(page.getByRole('button', { name: 'Newer entries' }))
      .toHaveAttribute('aria-disabled', 'true');
    (older.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(status).toHaveTextContent('Page 2: 1 entry');
    await expect.element(older).toHaveAttribute('aria-disabled', 'true');
    await expect.element(older).toHaveFocus();

    // Verify trail keeps the focus while it runs, and ignores presses meanwhile.
    const verify = page.getByRole('button', { name: 'Verify trail' });
    (verify.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    const running = page.getByRole('button', { name: 'Verifying…' });
    await expect.element(running).toHaveAttribute('aria-disabled', 'true');
    await expect.element(running).toHaveFocus();
    verified(
      new Response(
        JSON.stringify({
          ok: true,
          checked: 51,
          headHash: 'f',
          firstBroken: null,
          brokenCount: 0,
          broken: [],
        }),
      ),
    );
    await expect.element(page.getByText(/^The trail verifies: 51 entries/)).toBeVisible();
    await expect.element(verify).toHaveFocus();

    await page.getByLabelText('Object id').fill('x');
    await expect.element(status).toHaveTextContent('No entries match these filters.');
  });
});

describe('when the server fails', () => {
  const busy = () =>
    new Response(JSON.stringify({ message: 'The server is busy; try again in a moment' }), {
      status: 503,
      headers: { 'Content-Type': 'application/json' },
    });

  it('says the trail failed to load, never that no entry matches, and loads it again on Retry', async () => {
    signInAuditor();
    let failing = true;
    let calls = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(String(input), window.location.origin);
      if (url.pathname === '/api/audit-log/facets') {
        return new Response(JSON.stringify({ actions: ['approve'], entities: [] }));
      }
      calls++;
      return failing ? busy() : new Response(JSON.stringify([approval]));
    });
    await renderSection('/audit?action=approve');
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(
        'Failed to load the audit trail: The server is busy; try again in a moment',
      );
    expect(page.getByText('No entries match these filters.').elements()).toHaveLength(0);
    // Failing again: the message stays, and so does the focus on Retry.
    const retry = page.getByRole('button', { name: 'Retry' });
    (retry.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => calls).toBe(2);
    await expect.element(retry).toHaveFocus();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(/^Failed to load the audit trail/);
    failing = false;
    await retry.click();
    await expect.element(page.getByText('status: pending → approved')).toBeVisible();
    expect(page.getByRole('alert').elements()).toHaveLength(0);
    expect(page.getByRole('button', { name: 'Retry' }).elements()).toHaveLength(0);
  });

  it('names a record that is not there, with nothing to retry', async () => {
    signInAuditor();
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) =>
      new URL(String(input), window.location.origin).pathname === '/api/audit-log'
        ? new Response(JSON.stringify({ message: 'Inspection not found' }), { status: 404 })
        : new Response(JSON.stringify({ actions: [], entities: [] })),
    );
    await renderSection('/audit?record=nope');
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('No inspection has the id nope.');
    expect(page.getByRole('button', { name: 'Retry' }).elements()).toHaveLength(0);
  });

  it('says so when the network fails', async () => {
    signInAuditor();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await renderSection();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(/^Failed to load the audit trail: GET \/api\/audit-log\?.* failed: /);
    expect(page.getByText('No entries match these filters.').elements()).toHaveLength(0);
  });

  it('says beside Verify trail that the trail could not be verified', async () => {
    signInAuditor();
    stubTrail();
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) =>
      new URL(String(input), window.location.origin).pathname === '/api/audit-log/verify'
        ? busy()
        : answer(input),
    );
    await renderSection();
    await page.getByRole('button', { name: 'Verify trail' }).click();
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Could not verify the trail: The server is busy; try again in a moment');
    await expect.element(page.getByRole('button', { name: 'Verify trail' })).toBeVisible();
  });
});

describe('an entry’s address', () => {
  it('shows the address the request came from under who, where the trail has one', async () => {
    signInAuditor();
    const failed: AuditEntry = {
      ...approval,
      id: 9,
      action: 'login.failed',
      entity: 'user',
      actorEmail: 'factory@example.com',
      oldValue: null,
      newValue: { reason: 'wrong password' },
      ip: '192.0.2.7',
    };
    stubTrail([failed, { ...approval, ip: null }]);
    await renderSection('/audit?action=login.failed');
    const who = page.getByRole('row').filter({ hasText: 'Entry 9' }).getByRole('cell').first();
    await expect.element(who).toHaveTextContent(/factory@example\.com\s*IP 192\.0\.2\.7$/);
    const without = page.getByRole('row').filter({ hasText: 'Entry 7' }).getByRole('cell').first();
    await expect.element(without).toHaveTextContent(/lc\.manager@example\.com$/);
  });
});

describe('/audit keeps the trail’s filters and page in the URL', () => {
  const entityId = 'b'.repeat(24);
  const from = '2026-11-15T00:00:00.000Z';
  const to = '2026-11-20T23:59:59.999Z';
  const pageStatus = () => page.getByRole('status').filter({ hasText: /^(Page|No entries)/ });

  it('so that Back, a reload or a shared link shows the same entries', async () => {
    signInAuditor();
    stubTrail();
    const memory = await renderSection();
    await page.getByLabelText('Actor (email or id)').fill('lc.manager');
    await page.getByLabelText('Action').selectOptions('approve');
    await page.getByLabelText('Object type').selectOptions('inspection');
    await page.getByLabelText('Object id').fill(entityId);
    const shown = `/audit?actor=lc.manager&action=approve&entity=inspection&entityId=${entityId}`;
    // Each change replaced the entry: Back leaves /audit rather than undoing a filter.
    await expect.poll(() => memory.history).toEqual([shown]);

    // Coming back to that URL with a time range (Back from a report, a reload, a link).
    await cleanup();
    const again = stubTrail();
    await renderSection(`${shown}&from=${from}&to=${to}&before=9`);
    await expect.element(page.getByLabelText('Actor (email or id)')).toHaveValue('lc.manager');
    await expect.element(page.getByLabelText('Action')).toHaveValue('approve');
    await expect.element(page.getByLabelText('Object type')).toHaveValue('inspection');
    await expect.element(page.getByLabelText('Object id')).toHaveValue(entityId);
    await expect
      .element(page.getByRole('button', { name: /^Filter by date range: / }))
      .toHaveTextContent('Nov 15, 2026 – Nov 20, 2026');
    await expect.element(pageStatus()).toHaveTextContent(/^Page 2: /);
    expect(again.map(String)).toEqual([
      `actor=lc.manager&action=approve&entity=inspection&entityId=${entityId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=50&before=9`,
    ]);
  });

  it('applies a range open at one end, and says so', async () => {
    signInAuditor();
    const queries = stubTrail();
    await renderSection(`/audit?from=${from}`);
    await expect.element(page.getByText('From Nov 15, 2026 on (no end date).')).toBeVisible();
    await expect
      .poll(() => queries.at(-1)?.toString())
      .toBe(`from=${encodeURIComponent(from)}&limit=50`);
  });

  it('drops a value it cannot use from the address, replacing it', async () => {
    signInAuditor();
    const queries = stubTrail();
    const memory = await renderSection('/audit?action=approve&before=0&before=x&from=soon&foo=1');
    await expect.poll(() => memory.history).toEqual(['/audit?action=approve']);
    await expect.element(pageStatus()).toHaveTextContent(/^Page 1: 2 entries/);
    expect(queries.map(String)).toEqual(['action=approve&limit=50']);
  });
});

describe('an entry’s reason', () => {
  it('keeps its line breaks and wraps a long word, leaving the width to Old → new', async () => {
    await page.viewport(1280, 900);
    try {
      signInAuditor();
      stubTrail([{ ...signedApproval, reason: `Freigabe nach Prüfung.\n${LONGWORD}` }]);
      await renderSection();
      await page.getByLabelText('Action').selectOptions('approve');
      const reason = page.getByRole('row').nth(1).getByRole('cell').last();
      await expect.element(reason).toHaveTextContent(LONGWORD);
      const lines = [...reason.element().querySelectorAll('.user-text-line')];
      expect(lines.map((line) => line.textContent)).toEqual(['Freigabe nach Prüfung.', LONGWORD]);
      const frame = document.querySelector('.report-table-scroll') as HTMLElement;
      expect(frame.scrollWidth).toBeLessThanOrEqual(frame.clientWidth);
      expect(reason.element().getBoundingClientRect().width).toBeLessThan(450);
      const changesCell = reason.element().previousElementSibling as HTMLElement;
      expect(changesCell.getBoundingClientRect().width).toBeGreaterThan(300);
    } finally {
      await page.viewport(414, 896);
    }
  });
});
