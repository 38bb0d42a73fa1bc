// The default store: a directory. Writes go to a temporary file in the same file system and are
// renamed into place, so a crash leaves either the old object or the new one.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, assertPrefix, type ByteRange, type Storage } from './storage.ts';

/**
 * Temporary files older than this are left by a killed write and removed when a storage is opened.
 * A write in progress keeps its file fresh (a put streams a request body, bounded by the request
 * timeout); with PostgreSQL another server on the same files may be writing one now.
 */
export const TEMPORARY_FILE_LIFETIME_MS = 60 * 60 * 1000;

export class LocalStorage implements Storage {
  private readonly tmpDir: string;
  /** Temporary files a killed write left, removed when this storage was opened. */
  readonly sweptTemporaryFiles: number;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.sweptTemporaryFiles = this.sweepTemporaryFiles(Date.now() - TEMPORARY_FILE_LIFETIME_MS);
  }

  /**
   * Removes the temporary files last written before `before`: what a write killed part way left
   * (it never became an object, so nothing is lost). Once, when the server starts; a file that
   * cannot be removed stays for the next start.
   */
  private sweepTemporaryFiles(before: number): number {
    let removed = 0;
    for (const name of fs.readdirSync(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      try {
        if (fs.lstatSync(file).mtimeMs >= before) continue;
        fs.rmSync(file, { recursive: true, force: true });
        removed++;
      } catch {
        // Removed meanwhile by its writer, or not removable now: left for the next start.
      }
    }
    return removed;
  }

  private resolve(key: string): string {
    assertKey(key);
    const file = path.resolve(this.root, key);
    // Defence in depth: the key pattern already excludes this.
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Key escapes storage: ${key}`);
    return file;
  }

  async put(key: string, data: Buffer | Readable): Promise<{ size: number }> {
    const file = this.resolve(key);
    const tmp = path.join(this.tmpDir, randomBytes(12).toString('hex'));
    await fsp.mkdir(path.dirname(file), { recursive: true });
    try {
      await pipeline(
        Buffer.isBuffer(data) ? Readable.from([data]) : data,
        fs.createWriteStream(tmp),
      );
      const handle = await fsp.open(tmp, 'r');
      await handle.sync();
      await handle.close();
      await fsp.rename(tmp, file);
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    return { size: (await fsp.stat(file)).size };
  }

  async probeWrite(): Promise<void> {
    // In the folder every put writes to first: where an upload would fail. The sync makes a full
    // disk answer here, not at some later flush.
    const file = path.join(this.tmpDir, `probe-${randomBytes(8).toString('hex')}`);
    try {
      const handle = await fsp.open(file, 'wx');
      try {
        await handle.writeFile('ok');
        await handle.sync();
      } finally {
        await handle.close();
      }
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await fsp.stat(this.resolve(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(key: string, range?: ByteRange): Readable {
    return fs.createReadStream(this.resolve(key), range);
  }

  async delete(key: string): Promise<boolean> {
    const file = this.resolve(key);
    try {
      await fsp.unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    await this.removeEmptyFolders(key);
    return true;
  }

  /**
   * Removes the folders below the key's top-level one that its deletion left empty (a verified
   * upload's `videos/<video>/<upload>.webm`): an object store has no folders to leave behind.
   */
  private async removeEmptyFolders(key: string): Promise<void> {
    const segments = key.split('/');
    for (let depth = segments.length - 1; depth > 1; depth--) {
      try {
        await fsp.rmdir(this.resolve(segments.slice(0, depth).join('/')));
      } catch {
        return; // Not empty (or already gone): the folders above are not empty either.
      }
    }
  }

  async append(key: string, data: Readable): Promise<{ size: number }> {
    const file = this.resolve(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // Whatever arrived before an error (a dropped connection) stays: the upload resumes after it.
    // No sync per chunk: the one at `move` writes the same bytes without a wait per chunk.
    await pipeline(data, fs.createWriteStream(file, { flags: 'a' }));
    return { size: (await fsp.stat(file)).size };
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const handle = await fsp.open(source, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(source, target);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertPrefix(prefix);
    const dir = path.resolve(this.root, prefix);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true, recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const count = entries.filter((entry) => entry.isFile()).length;
    await fsp.rm(dir, { recursive: true, force: true });
    return count;
  }
}
