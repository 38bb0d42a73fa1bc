// The default store: a directory. Writes go to a temporary file in the same file system and are
// renamed into place, so a crash leaves either the old object or the new one.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, assertPrefix, type ByteRange, type Storage } from './storage.ts';

export class LocalStorage implements Storage {
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
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
