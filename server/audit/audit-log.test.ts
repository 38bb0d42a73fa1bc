import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { createRoleUsers, type RoleUsers } from '../test/fixtures.ts';

let t: TestApp;
let u: RoleUsers;

beforeAll(async () => {
  t = await build();
  u = await createRoleUsers(t);
  for (const name of ['One', 'Two', 'Three']) {
    await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: u.admin.auth,
      payload: { name },
    });
  }
});
afterAll(() => t.close());

describe('audit log', () => {
  it('is readable by audit, newest first, paged and filtered', async () => {
    const res = await t.app.inject({
      url: '/api/audit-log?entity=line-clearance&limit=2',
      headers: u.audit.auth,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.map((e: { newValue: { name: string } }) => e.newValue.name)).toEqual([
      'Three',
      'Two',
    ]);
    expect(page[0]).toMatchObject({
      actorId: u.admin.id,
      actorEmail: u.admin.email,
      action: 'create',
      entity: 'line-clearance',
      at: expect.stringMatching(/Z$/),
    });
    const next = await t.app.inject({
      url: `/api/audit-log?entity=line-clearance&before=${page[1].id}`,
      headers: u.audit.auth,
    });
    expect(next.json().map((e: { newValue: { name: string } }) => e.newValue.name)).toEqual([
      'One',
    ]);
    const bad = await t.app.inject({ url: '/api/audit-log?limit=0', headers: u.audit.auth });
    expect(bad.json().message).toMatch(/^query\.limit /);
    // An id past any the trail can hold is a 400, not the database's 500.
    const huge = await t.app.inject({
      url: '/api/audit-log?before=99999999999999999999999',
      headers: u.audit.auth,
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/^query\.before /);
  });

  it('lists each action and object type the trail holds once, in order, for the filters', async () => {
    const res = await t.app.inject({ url: '/api/audit-log/facets', headers: u.audit.auth });
    expect(res.statusCode).toBe(200);
    const { rows } = (await t.services.ctx.db.execute(sql`
      select array(select distinct action from audit_log order by 1) as actions,
             array(select distinct entity from audit_log order by 1) as entities`)) as unknown as {
      rows: { actions: string[]; entities: string[] }[];
    };
    expect(res.json()).toEqual(rows[0]);
    expect(res.json().actions).toContain('create');
    expect(res.json().entities).toContain('line-clearance');
    const refused = await t.app.inject({ url: '/api/audit-log/facets', headers: u.operator.auth });
    expect(refused.statusCode).toBe(403);
  });

  it('hashes every column of an entry: its canonical text is the whole row, as to_jsonb gives it', async () => {
    // Migration 0009 names the columns; a column added to audit_log without being added there
    // would go unhashed (an edit to it would not show), and this comparison fails.
    const { rows } = (await t.services.ctx.db.execute(sql`
      select count(*)::int as entries,
             count(*) filter (where audit_log_canonical(a) = ((to_jsonb(a) - 'hash' - 'prev_hash' - 'at')
               || jsonb_build_object('at_us', (extract(epoch from a.at) * 1000000)::bigint))::text)::int
               as whole
      from audit_log a`)) as unknown as { rows: { entries: number; whole: number }[] };
    expect(rows[0]?.entries).toBeGreaterThanOrEqual(3);
    expect(rows[0]?.whole).toBe(rows[0]?.entries);
  });

  it('numbers entries consecutively: each draws one id, under the chain’s lock', async () => {
    const { rows } = (await t.services.ctx.db.execute(
      sql`select min(id)::int as first, max(id)::int as last, count(*)::int as n from audit_log`,
    )) as unknown as { rows: { first: number; last: number; n: number }[] };
    const range = rows[0];
    expect(range?.n).toBeGreaterThanOrEqual(3);
    expect((range?.last ?? 0) - (range?.first ?? 0) + 1).toBe(range?.n);
  });

  it('rejects UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const { db } = t.services.ctx;
    // The trigger's own refusal (migration 0001), not just any SQL error: Drizzle wraps the
    // driver's error, whose message is the trigger's.
    const refusal = { cause: expect.objectContaining({ message: 'audit_log is append-only' }) };
    await expect(db.execute(sql`update audit_log set action = 'forged'`)).rejects.toMatchObject(
      refusal,
    );
    await expect(db.execute(sql`delete from audit_log`)).rejects.toMatchObject(refusal);
    await expect(db.execute(sql`truncate audit_log`)).rejects.toMatchObject(refusal);
    const rows = (await db.execute(
      sql`select count(*)::int as n from audit_log where action = 'forged'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(0);
  });
});
