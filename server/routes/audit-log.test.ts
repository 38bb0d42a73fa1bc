import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditReason } from '../audit/reason.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

/** RFC 4180 as toCsv writes it: CRLF rows, quoted cells with doubled quotes. */
const parseCsv = (text: string) =>
  text
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .slice(0, -1)
        .map(([, cell = '']) =>
          cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell,
        ),
    );

describe('the reason of an audit entry', () => {
  it('is the new value’s reason, else its signature’s notes', () => {
    expect(auditReason({ reason: 'wrong password' })).toBe('wrong password');
    expect(
      auditReason({ status: 'approved', signature: { notes: 'Seen clear after cleaning' } }),
    ).toBe('Seen clear after cleaning');
    expect(auditReason({ reason: '', signature: { notes: 'the notes' } })).toBeNull();
    expect(auditReason({ status: 'approved' })).toBeNull();
    expect(auditReason({ reason: 42 })).toBeNull();
    expect(auditReason('text')).toBeNull();
    expect(auditReason(null)).toBeNull();
  });

  it('is answered on each entry and exported in the CSV’s reason column', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: u.operator.email, password: 'not-the-password' },
    });
    expect(login.statusCode).toBe(401);
    const query = `action=login.failed&entityId=${u.operator.id}`;
    const entries = await t.app.inject({ url: `/api/audit-log?${query}`, headers: u.audit.auth });
    expect(entries.json()).toEqual([
      expect.objectContaining({ action: 'login.failed', reason: 'wrong password' }),
    ]);
    const csv = await t.app.inject({ url: `/api/audit-log.csv?${query}`, headers: u.audit.auth });
    const [header = [], row = []] = parseCsv(csv.body);
    expect(header).toContain('reason');
    expect(row[header.indexOf('reason')]).toBe('wrong password');
    expect(row[header.indexOf('new value')]).toBe('{"reason":"wrong password"}');
    // A refusal's reason; an entry without one has an empty cell, as the API's null.
    await t.app.inject({ url: '/api/audit-log', headers: u.operator.auth });
    const refused = await t.app.inject({
      url: `/api/audit-log.csv?action=authorization.denied&actor=${u.operator.id}`,
      headers: u.audit.auth,
    });
    expect(parseCsv(refused.body)[1]?.[header.indexOf('reason')]).toBe(
      'role required: audit or factory_manager or admin',
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: u.admin.auth,
      payload: { name: 'Blister 1' },
    });
    const created = await t.app.inject({
      url: '/api/audit-log.csv?action=create&entity=line-clearance',
      headers: u.audit.auth,
    });
    const [, creation = []] = parseCsv(created.body);
    expect(creation[header.indexOf('action')]).toBe('create');
    expect(creation[header.indexOf('reason')]).toBe('');
  });
});
