// One server and one browser per test file, plus the demo ids the routes need.
import type { Browser } from 'playwright';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { Api } from './api.ts';
import { launchBrowser } from './browser.ts';
import { demoAccount, demoPassword, type Role, type RouteParams } from './demo.ts';
import { startServer, type TestServer } from './server.ts';

export interface E2eFixture {
  server: TestServer;
  browser: Browser;
  /** An admin API session, for set-up and for checking what the UI stored. */
  admin: Api;
  params: RouteParams;
  /** A fresh token of the demo account holding `role`. */
  tokenFor: (role: Role) => Promise<string>;
}

/** A possible web build plus a fresh database with the demo data, on a busy shared machine. */
const startTimeoutMs = 180_000;

/**
 * Each test: several page loads and API calls, up to five at once in a file (describe.concurrent),
 * beside the rest of `npm test` on two cores that other work may keep busy. Alone a test takes a
 * few seconds; 25 s has been seen under load, so two minutes.
 */
const testTimeoutMs = 120_000;

interface Identified {
  _id: string;
}

/** Registers beforeAll/afterAll that start the server and the browser; read it inside tests. */
export function setUpE2e(): E2eFixture {
  vi.setConfig({ testTimeout: testTimeoutMs });
  const fixture = {} as E2eFixture;
  beforeAll(async () => {
    // Both start at once; whichever started is kept so afterAll stops it if the other failed.
    const [server, browser] = await Promise.allSettled([startServer(), launchBrowser()]);
    if (server.status === 'fulfilled') fixture.server = server.value;
    if (browser.status === 'fulfilled') fixture.browser = browser.value;
    if (server.status === 'rejected') throw server.reason;
    if (browser.status === 'rejected') throw browser.reason;
    fixture.admin = await Api.login(
      fixture.server.baseUrl,
      demoAccount('admin').email,
      demoPassword,
    );
    const [lines, inspections, videos] = await Promise.all([
      fixture.admin.get<Identified[]>('/api/line-clearances'),
      fixture.admin.get<Identified[]>('/api/inspections'),
      fixture.admin.get<(Identified & { id: string; size: number })[]>('/api/videos'),
    ]);
    // A video with its file, so the video page has its player (the demo's newest has not arrived).
    const withFile = videos.find((candidate) => candidate.size > 0);
    const [line, inspection, video] = [lines[0], inspections[0], withFile];
    if (!line || !inspection || !video) throw new Error('the demo data did not load');
    fixture.params = { areaId: line._id, inspectionId: inspection._id, videoId: video.id };
    fixture.tokenFor = async (role) =>
      (await Api.login(fixture.server.baseUrl, demoAccount(role).email, demoPassword)).token;
  }, startTimeoutMs);
  // Vitest prints failures when the whole run ends, which a run stopped at CI's time limit never
  // reaches: say at once which test failed and on which wait.
  afterEach(({ task }) => {
    if (task.result?.state !== 'fail') return;
    const [error] = task.result.errors ?? [];
    console.error(`[e2e] ${task.name} failed: ${error?.message ?? 'no error recorded'}`);
  });
  afterAll(async () => {
    // The next file in this worker shares its module graph (isolate: false): not this timeout.
    vi.resetConfig();
    await fixture.browser?.close();
    await fixture.server?.stop();
  });
  return fixture;
}
