// A start that fails names the setting to fix; a real start of the server bundle shows it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentServerBundle } from '../tests/support/server-bundle.ts';
import { startupProblem } from './startup-errors.ts';
import { migratedPglite } from './test/build.ts';

const config = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: '/srv/lc/data',
  databaseUrl: null,
  tls: null,
};
const systemError = (code: string, extra: object = {}) =>
  Object.assign(new Error(`${code}: failed`), { code, ...extra });

describe('startupProblem', () => {
  it('names the setting behind each known failure', () => {
    expect(startupProblem(systemError('EADDRINUSE'), config)).toMatch(
      /^PORT 8080 is already in use on 0\.0\.0\.0 /,
    );
    expect(startupProblem(systemError('EROFS', { path: '/srv/lc/data/pglite' }), config)).toMatch(
      /^DATA_DIR \/srv\/lc\/data cannot be used as the data folder \(EROFS: failed\)/,
    );
    expect(startupProblem(systemError('EACCES', { path: '/srv/lc/data' }), config)).toMatch(
      /^DATA_DIR \/srv\/lc\/data cannot be written by this user/,
    );
    expect(startupProblem(systemError('ENOTFOUND'), { ...config, host: 'x.invalid' })).toMatch(
      /^HOST x\.invalid is not an address of this machine/,
    );
    // A database error wraps the connection's: the cause is found, and no URL is printed.
    const refused = new Error('Failed query: CREATE SCHEMA', {
      cause: systemError('ECONNREFUSED'),
    });
    const withUrl = { ...config, databaseUrl: 'postgres://u:secret@db:1/lc' };
    expect(startupProblem(refused, withUrl)).toMatch(
      /^DATABASE_URL: the PostgreSQL server cannot be reached/,
    );
    expect(startupProblem(refused, withUrl)).not.toContain('secret');
    const mismatch = new Error('error:05800074:x509 certificate routines::key values mismatch');
    expect(startupProblem(mismatch, { ...config, tls: { cert: 'c', key: 'k' } })).toMatch(
      /^TLS_CERT and TLS_KEY do not belong together/,
    );
    // Anything else keeps its own message and stack.
    expect(startupProblem(new Error('something else'), config)).toBeNull();
  });

  it('is what the server `npm start` runs prints for a port in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-start-'));
    try {
      // The data folder holds the tests' migrated database (PGlite's dump is a tar of its folder):
      // the child's own initdb and migrations would be most of its run, and the port is tested.
      const pgliteDir = path.join(dataDir, 'pglite');
      fs.mkdirSync(pgliteDir);
      const untar = spawnSync('tar', ['-x', '-C', pgliteDir], { input: await migratedPglite() });
      expect(untar.status, untar.stderr.toString()).toBe(0);
      const run = spawnSync(
        process.execPath,
        ['--enable-source-maps', await currentServerBundle()],
        {
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            ADMIN_EMAIL: 'admin@plant.example',
            ADMIN_PASSWORD: 'first-admin-pw',
            DATABASE_URL: '',
            LOG_LEVEL: 'silent',
            // The first admin's password hash at the tests' cost, not production's.
            SCRYPT_LOG2_N: '10',
          },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(
        `PORT ${port} is already in use on 127.0.0.1 (another server, or this one still running): stop it, or set PORT to a free port`,
      );
    } finally {
      blocker.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
