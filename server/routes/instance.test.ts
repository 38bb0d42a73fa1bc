// GET /api/instance tells the sign-in page whether this database holds the demo dataset.
import { afterEach, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { loadFixture } from '../test/demo-fixture.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/instance', () => {
  it('says demo: false on a database without the demo data, to anyone', async () => {
    t = await build();
    const res = await t.app.inject({ url: '/api/instance' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ demo: false });
  });

  it('says demo: true once the demo loader has run, before anyone signs in', async () => {
    t = await build();
    await loadFixture(t);
    const res = await t.app.inject({ url: '/api/instance' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ demo: true });
  });
});
