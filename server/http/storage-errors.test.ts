// A full or read-only disk is answered 507 with what to do, not 500 "Internal server error". The
// database errors are built as PGlite 0.5 really throws them on a full tmpfs and on a read-only
// bind mount of its folder (tried by hand); ENOSPC is Node's own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DrizzleQueryError } from 'drizzle-orm';
import { DatabaseError } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { build, type TestApp } from '../test/build.ts';
import { loadFixture, PNG } from '../test/demo-fixture.ts';
import { createUser, PASSWORD } from '../test/fixtures.ts';
import { multipartBody } from '../test/multipart.ts';
import { storageFailure, storageFailureMessage } from './storage-errors.ts';

/** A real ENOSPC from Node: /dev/full refuses every write with it. */
async function realEnospc(): Promise<Error> {
  try {
    await fs.writeFile('/dev/full', 'x');
  } catch (error) {
    return error as Error;
  }
  throw new Error('/dev/full accepted a write');
}

/** Node's EROFS, as fs reports it (no unprivileged way to make a folder read-only for a test). */
function erofs(syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EROFS: read-only file system, ${syscall} '${file}'`), {
    errno: -30,
    code: 'EROFS',
    syscall,
    path: file,
  });
}

/** A PostgreSQL error as node-postgres raises it, wrapped by Drizzle as its queries are. */
function queryError(code: string, message: string, routine = 'mdopenfork') {
  const cause = Object.assign(new DatabaseError(message, 0, 'error'), {
    code,
    severity: 'ERROR',
    routine,
  });
  return new DrizzleQueryError('select "address" from "address_failures"', [], cause);
}

describe('storageFailure', () => {
  it('recognises Node errors by code, and tells a failed removal from a failed write', async () => {
    expect(storageFailure(await realEnospc())).toEqual({ problem: 'full', removal: false });
    expect(storageFailure(erofs('open', '/data/files/.tmp/ab'))).toEqual({
      problem: 'read-only',
      removal: false,
    });
    expect(storageFailure(erofs('unlink', '/data/files/videos/a.webm'))).toEqual({
      problem: 'read-only',
      removal: true,
    });
    const quota = Object.assign(new Error('EDQUOT: disk quota exceeded, write'), {
      code: 'EDQUOT',
      syscall: 'write',
    });
    expect(storageFailure(quota)).toEqual({ problem: 'full', removal: false });
  });

  it('recognises PostgreSQL/PGlite errors by SQLSTATE behind the Drizzle wrapper', () => {
    // What PGlite answered on a full tmpfs, and on a read-only bind mount of its folder.
    const full = queryError(
      '53100',
      'could not extend file "base/5/16599": No space left on device',
      'mdzeroextend',
    );
    const readOnly = queryError(
      '42501',
      'could not open file "base/5/16599": Read-only file system',
    );
    expect(storageFailure(full)).toEqual({ problem: 'full', removal: false });
    expect(storageFailure(readOnly)).toEqual({ problem: 'read-only', removal: false });
    expect(
      storageFailure(queryError('58030', 'could not write to file "x": No space left on device')),
    ).toEqual({ problem: 'full', removal: false });
    expect(storageFailure(queryError('XX000', 'could not write "x": Disk quota exceeded'))).toEqual(
      { problem: 'full', removal: false },
    );
  });

  it('takes a missing folder for a missing folder when its file system can be written', async () => {
    // The ENOENT that Node's recursive mkdir gives for EROFS looks like this one (see below).
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-storage-errors-'));
    try {
      const missing = await fs.mkdir(path.join(parent, 'gone', 'floorplans')).catch((e) => e);
      expect(missing).toMatchObject({ code: 'ENOENT', syscall: 'mkdir' });
      expect(storageFailure(missing)).toBeNull();
    } finally {
      await fs.rm(parent, { recursive: true });
    }
  });

  it('leaves other errors alone, whatever their text says', () => {
    expect(storageFailure(new Error('No space left on device'))).toBeNull();
    expect(
      storageFailure(queryError('42501', 'permission denied for table users', 'aclcheck_error')),
    ).toBeNull();
    // A stored value quoted in a constraint error is not the disk speaking.
    expect(
      storageFailure(
        queryError(
          '23505',
          'duplicate key value violates unique constraint "users_email_key": Read-only file system',
          '_bt_check_unique',
        ),
      ),
    ).toBeNull();
    const loop: { message: string; cause?: unknown } = { message: 'loop' };
    loop.cause = loop;
    expect(storageFailure(loop)).toBeNull();
    expect(storageFailure(undefined)).toBeNull();
  });

  it('says nothing was saved only when the failure came before any commit', () => {
    const write = storageFailureMessage({ problem: 'full', removal: false }, 'POST');
    expect(write).toBe(
      "The server's storage is full, so nothing was saved. Tell the administrator (the server log has the details).",
    );
    const read = storageFailureMessage({ problem: 'read-only', removal: false }, 'GET');
    expect(read).toBe(
      "The server's storage is read-only. Tell the administrator (the server log has the details).",
    );
    const removal = storageFailureMessage({ problem: 'read-only', removal: true }, 'DELETE');
    expect(removal).toContain('files could not be removed; the change itself may have been saved');
    expect(removal).not.toContain('nothing was saved');
    // A resumable upload's chunk keeps what reached the disk; a JSON PATCH saves nothing.
    const chunk = storageFailureMessage({ problem: 'full', removal: false }, 'PATCH', true);
    expect(chunk).toContain('the upload stopped; it goes on from what the server received');
    expect(chunk).not.toContain('nothing was saved');
    expect(storageFailureMessage({ problem: 'full', removal: false }, 'PATCH')).toBe(write);
  });
});

describe('the error handler on a full or read-only disk', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof loadFixture>>;

  beforeAll(async () => {
    t = await build();
    f = await loadFixture(t);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers sign-in on a read-only database folder with 507 and what to do', async () => {
    // The QA's case: PGlite could not open a table's file, so even sign-in failed.
    vi.spyOn(t.services.ctx.credentials, 'check').mockRejectedValueOnce(
      queryError('42501', 'could not open file "base/5/16599": Read-only file system'),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin@example.com', password: 'whatever-it-is' },
    });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({
      message:
        "The server's storage is read-only, so nothing was saved. Tell the administrator (the server log has the details).",
    });
  });

  it('answers a floor-plan upload on a full file store with 507, and keeps no floor plan', async () => {
    const lines = (
      await t.app.inject({ url: '/api/line-clearances', headers: f.auth.admin })
    ).json();
    const before = (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin })).json();
    vi.spyOn(t.services.ctx.storage, 'put').mockRejectedValueOnce(await realEnospc());
    const body = multipartBody(
      { name: 'Floorplan on a full disk', lineID: lines[0]._id },
      { field: 'image', filename: 'a.png', contentType: 'image/png', bytes: PNG },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/floorplans',
      headers: { ...f.auth.admin, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(507);
    expect(res.json().message).toBe(
      "The server's storage is full, so nothing was saved. Tell the administrator (the server log has the details).",
    );
    const after = (await t.app.inject({ url: '/api/floorplans', headers: f.auth.admin })).json();
    expect(after).toEqual(before);
  });

  it('does not claim nothing was saved when only the removal after a commit failed', async () => {
    const [video] = (await t.app.inject({ url: '/api/videos', headers: f.auth.admin })).json();
    vi.spyOn(t.services.ctx.storage, 'delete').mockRejectedValue(
      erofs('unlink', '/data/files/videos/a.mp4'),
    );
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${video._id}`,
      headers: f.auth.admin,
      payload: { reason: 'Recorded on the wrong line by mistake' },
    });
    expect(res.statusCode).toBe(507);
    expect(res.json().message).toBe(
      "The server's storage is read-only, so files could not be removed; the change itself may have been saved: check it before trying again. Tell the administrator (the server log has the details).",
    );
    // The rows went in their transaction before the files: the deletion was saved.
    const gone = await t.app.inject({ url: `/api/videos/${video._id}`, headers: f.auth.admin });
    expect(gone.statusCode).toBe(404);
  });

  it('still answers any other failure with 500 and no details', async () => {
    vi.spyOn(t.services.ctx.credentials, 'check').mockRejectedValueOnce(
      queryError('42501', 'permission denied for table address_failures', 'aclcheck_error'),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin@example.com', password: 'whatever-it-is' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error' });
  });
});

/**
 * Makes `dir` read-only for real: a bind mount onto itself, remounted read-only (files already
 * open keep writing, as with a file system remounted read-only under a running server). Answers
 * the undo, or null where this process may not mount (not root, or a container without
 * CAP_SYS_ADMIN): those runs skip the tests below, whose cases are covered above by built errors.
 */
function mountReadOnly(dir: string): (() => void) | null {
  try {
    execFileSync('mount', ['--bind', dir, dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const undo = () => execFileSync('umount', [dir], { stdio: 'ignore' });
  try {
    execFileSync('mount', ['-o', 'remount,ro,bind', dir], { stdio: 'ignore' });
  } catch {
    undo();
    return null;
  }
  return undo;
}

describe('a real read-only folder (where this process may mount)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    // PGlite in DATA_DIR, not in memory, so its folder can be made read-only.
    t = await build({}, { onDisk: true });
    admin = await createUser(t, 'admin', ['admin']);
  });
  afterAll(() => t.close());

  it('a read-only file store: health names it, a floor-plan upload answers 507', async (context) => {
    const line = await t.app.inject({
      method: 'POST',
      url: '/api/line-clearances',
      headers: admin.auth,
      payload: { name: 'Line on a read-only store' },
    });
    expect(line.statusCode).toBe(201);
    const undo = mountReadOnly(path.join(t.dataDir, 'files'));
    if (!undo) return context.skip();
    try {
      const health = await t.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json().message).toBe(
        'Not healthy: the file store cannot write (its storage is read-only). The server log has the details.',
      );
      // The first floor plan of the store: its folder does not exist yet (the mkdir case).
      const body = multipartBody(
        { name: 'Floorplan', lineID: line.json()._id },
        { field: 'image', filename: 'a.png', contentType: 'image/png', bytes: PNG },
      );
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/floorplans',
        headers: { ...admin.auth, ...body.headers },
        payload: body.payload,
      });
      expect(upload.statusCode).toBe(507);
      expect(upload.json().message).toBe(
        "The server's storage is read-only, so nothing was saved. Tell the administrator (the server log has the details).",
      );
    } finally {
      undo();
    }
    const plans = await t.app.inject({ url: '/api/floorplans', headers: admin.auth });
    expect(plans.json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('a read-only database folder: health names it, sign-in answers 507', async (context) => {
    // PGlite's folder; a PostgreSQL server's (TEST_DATABASE_URL) is not this process's to mount.
    if (t.services.ctx.dbKind !== 'pglite') return context.skip();
    const undo = mountReadOnly(path.join(t.dataDir, 'pglite'));
    if (!undo) return context.skip();
    try {
      // `select 1` alone still answered: this is what health used to check.
      const health = await t.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json().message).toBe(
        'Not healthy: the database cannot write (its storage is read-only). The server log has the details.',
      );
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: admin.email, password: PASSWORD },
      });
      expect(login.statusCode).toBe(507);
      expect(login.json().message).toBe(
        "The server's storage is read-only, so nothing was saved. Tell the administrator (the server log has the details).",
      );
    } finally {
      undo();
    }
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
