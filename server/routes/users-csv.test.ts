import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLockouts, auditLog, lineClearances, users } from '../db/schema.ts';
import { iso, newId } from '../ids.ts';
import { insertUser } from '../services/users.ts';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, PASSWORD, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
});
afterAll(() => t.close());

const HEADER =
  'Name,Email,Roles,Status,Line clearances,Manages,Created (UTC),Password set by,' +
  'Password changed (UTC),Locked until (UTC),Last sign-in (UTC)';

const signIn = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD } });

/** The file's rows by email; the test's cells hold no comma or quote, so a split reads them. */
function rowsByEmail(body: string) {
  expect(body.startsWith('\ufeff')).toBe(true);
  expect(body).not.toContain('"');
  const [header, ...lines] = body.slice(1).split('\r\n').filter(Boolean);
  expect(header).toBe(HEADER);
  return new Map(lines.map((line) => line.split(',')).map((cells) => [cells[1], cells]));
}

describe('GET /api/users.csv', () => {
  it('is for admins and factory managers only', async () => {
    const status = async (headers: Record<string, string>) =>
      (await t.app.inject({ url: '/api/users.csv', headers })).statusCode;
    expect(await status({})).toBe(401);
    expect(await status(u.admin.auth)).toBe(200);
    expect(await status(u.factory.auth)).toBe(200);
    for (const who of [u.lc, u.audit, u.operator]) expect(await status(who.auth)).toBe(403);
  });

  it('lists every account for the access review, downloaded with the media cookie', async () => {
    const { db } = t.services.ctx;
    const [alpha, beta] = [newId(), newId()];
    // One line named on the operator, the other naming the operator: both are assigned. The LC
    // manager manages both (and works on neither); its colleague manages a third.
    await db.insert(lineClearances).values([
      { id: beta, name: 'Line Beta', assignedOperators: [u.operator.id], managerId: u.lc.id },
      { id: alpha, name: 'Line Alpha', managerId: u.lc.id },
      { id: newId(), name: 'Line Gamma', managerId: u.lc2.id },
    ]);
    await db
      .update(users)
      .set({ lineClearanceIds: [alpha] })
      .where(eq(users.id, u.operator.id));
    await db.update(users).set({ status: 'deactivated' }).where(eq(users.id, u.operator2.id));
    const until = new Date(Date.now() + 3_600_000);
    await db.insert(accountLockouts).values([
      { userId: u.lc2.id, windowStartedAt: new Date(), lockedUntil: until, locks: 1 },
      // A lock that has run out is not shown.
      { userId: u.lc.id, windowStartedAt: new Date(), lockedUntil: new Date(0), locks: 1 },
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: u.admin.auth,
      payload: {
        name: 'Reset Person',
        email: 'reset@test.example',
        password: 'long-enough-pw',
        role: ['lc_manager', 'audit'],
      },
    });
    expect(created.statusCode).toBe(201);
    const formula = await insertUser(db, t.services.ctx.passwords, {
      name: '=1+2',
      email: 'formula@test.example',
      password: PASSWORD,
      roles: ['operator'],
    });
    expect((await signIn(u.factory.email)).statusCode).toBe(200);
    await signIn(u.admin.email);
    const login = await signIn(u.admin.email);
    const cookie = /^lc_media=([^;]+);/.exec(String(login.headers['set-cookie']))?.[1];

    const day = iso(new Date()).slice(0, 10);
    const res = await t.app.inject({
      url: '/api/users.csv',
      headers: { cookie: `lc_media=${cookie}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="user-access-review-${day}.csv"`,
    );
    const rows = rowsByEmail(res.body);
    const all = await db.select().from(users);
    expect([...rows.keys()].sort()).toEqual(all.map((row) => row.email).sort());

    const of = (email: string) => {
      const row = all.find((user) => user.email === email);
      if (!row) throw new Error(email);
      return row;
    };
    const [newest] = await db
      .select({ at: auditLog.at })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'login'), eq(auditLog.entityId, u.admin.id)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const admin = of(u.admin.email);
    expect(rows.get(u.admin.email)).toEqual([
      'Test admin',
      u.admin.email,
      'Admin',
      'active',
      '',
      '',
      iso(admin.createdAt),
      'the user',
      iso(admin.passwordChangedAt),
      '',
      newest && iso(newest.at),
    ]);
    expect(rows.get(u.operator.email)?.slice(2, 6)).toEqual([
      'Operator',
      'active',
      'Line Alpha; Line Beta',
      '',
    ]);
    // The lines each LC manager manages, by name as the assigned lines are.
    expect(rows.get(u.lc.email)?.slice(4, 6)).toEqual(['', 'Line Alpha; Line Beta']);
    expect(rows.get(u.lc2.email)?.[5]).toBe('Line Gamma');
    expect(rows.get(u.operator2.email)?.[3]).toBe('deactivated');
    expect(rows.get(u.lc2.email)?.[9]).toBe(iso(until));
    expect(rows.get(u.lc.email)?.[9]).toBe('');
    expect(rows.get('reset@test.example')?.slice(2, 8)).toEqual([
      'Line Clearance Manager; Audit',
      'active',
      '',
      '',
      iso(of('reset@test.example').createdAt),
      `Test admin (${u.admin.email})`,
    ]);
    // Signed in: a time; never signed in: empty.
    expect(rows.get(u.factory.email)?.[10]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(rows.get(u.audit.email)?.[10]).toBe('');
    // A spreadsheet shows the name, never runs it.
    expect(rows.get(formula.email)?.[0]).toBe("'=1+2");
  });

  it("says a password the user must replace is not the user's own", async () => {
    const { db } = t.services.ctx;
    await db.update(users).set({ passwordSetBy: u.audit.id }).where(eq(users.id, u.audit.id));
    const res = await t.app.inject({ url: '/api/users.csv', headers: u.factory.auth });
    expect(rowsByEmail(res.body).get(u.audit.email)?.[7]).toBe(
      'the deployment or expired (to be replaced)',
    );
  });
});
