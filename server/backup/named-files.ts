// Which stored files the database names (docs/server.md "Storage"), read from a database or from a
// pg_dump file, and which of them a backup's files lack. A backup is consistent only if every file
// its database needs is in it: a file deleted after a commit while a live backup ran is not.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** The columns that name stored files, and those that say whether a row needs its file. */
const COLUMNS = {
  videos: ['id', 'storage_key', 'sha256', 'size', 'keyframes_key', 'keyframe_images_prefix'],
  predictions: ['video_id', 'filename'],
  floorplans: ['image_key'],
  signatures: ['kept'],
  uploads: ['storage_key', 'status'],
} as const;
type Table = keyof typeof COLUMNS;
const TABLES = Object.keys(COLUMNS) as Table[];

/** Each table's rows, every value as text (as COPY writes it), null for NULL or no such column. */
export type NamingRows = Record<Table, Record<string, string | null>[]>;

/** A row of `table` with exactly its naming columns; a column an older schema lacks is null. */
function pick(table: Table, values: Record<string, unknown>): Record<string, string | null> {
  const row: Record<string, string | null> = {};
  for (const column of COLUMNS[table]) {
    const value = values[column];
    row[column] = value === undefined || value === null ? null : String(value);
  }
  return row;
}

export interface NamedFiles {
  /** Every key and folder a record names: a stored file under none of them no record names. */
  all: Set<string>;
  /** Keys a record needs. */
  files: Set<string>;
  /** Folders a record needs at least one file in (keyframe images). */
  folders: Set<string>;
}

/**
 * What the rows name. Not needed, only named: a submitted video's key before its file arrives
 * (no SHA-256, size 0), an unfinished upload's bytes (they may not have begun), and the images
 * folder of ingested results (results may be posted without images; their keyframes.txt, deleted
 * with the folder, is needed). A keyframe images folder is checked as a whole (it holds a file)
 * and through each detection's image in it: no file is read to know more.
 */
export function namedFiles(rows: NamingRows): NamedFiles {
  const named: NamedFiles = { all: new Set(), files: new Set(), folders: new Set() };
  const need = (key: string, into: Set<string>) => {
    named.all.add(key);
    into.add(key);
  };
  const imagesOf = new Map<string, string>();
  for (const video of rows.videos) {
    const { id, storage_key: file, keyframes_key: keyframes } = video;
    const images = video.keyframe_images_prefix;
    if (file) {
      if (video.sha256 !== null || Number(video.size) > 0) need(file, named.files);
      else named.all.add(file);
    }
    if (keyframes) need(keyframes, named.files);
    if (images) {
      if (images.startsWith('ingest/')) named.all.add(images);
      else need(images, named.folders);
      if (id) imagesOf.set(id, images);
    }
  }
  for (const { video_id: video, filename } of rows.predictions) {
    const images = video && imagesOf.get(video);
    if (images && filename) need(`${images}/${filename}`, named.files);
  }
  for (const { image_key: key } of rows.floorplans) if (key) need(key, named.files);
  for (const { kept } of rows.signatures) {
    // A signed record keeps the floor plan it was drawn on, served while it names it.
    const key = kept && (JSON.parse(kept) as KeptImage | null)?.layout?.floorplan?.imageKey;
    if (typeof key === 'string') need(key, named.files);
  }
  for (const upload of rows.uploads) {
    if (upload.storage_key && upload.status === 'receiving') named.all.add(upload.storage_key);
  }
  return named;
}

interface KeptImage {
  layout?: { floorplan?: { imageKey?: unknown } | null } | null;
}

/** The folders holding each path (`a/b/c` is in `a/b` and `a`). */
function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of paths) {
    for (let i = file.lastIndexOf('/'); i > 0; i = file.lastIndexOf('/', i - 1)) {
      folders.add(file.slice(0, i));
    }
  }
  return folders;
}

/** The needed keys not among `present`, sorted; a folder with no file in it as `folder/`. */
export function lacking(named: NamedFiles, present: Iterable<string>): string[] {
  const files = new Set(present);
  const folders = foldersOf(files);
  return [
    ...[...named.files].filter((key) => !files.has(key)),
    ...[...named.folders].filter((folder) => !folders.has(folder)).map((folder) => `${folder}/`),
  ].sort();
}

/** Whether `named` needs an entry of `lacking` (a key, or a `folder/`). */
export const needs = (named: NamedFiles, entry: string): boolean =>
  entry.endsWith('/') ? named.folders.has(entry.slice(0, -1)) : named.files.has(entry);

/** The paths of `present` that no record names (left by a kill; counted, never deleted). */
export function unnamed(named: NamedFiles, present: Iterable<string>): string[] {
  const result: string[] = [];
  for (const file of present) {
    if (named.all.has(file)) continue;
    let i = file.lastIndexOf('/');
    while (i > 0 && !named.all.has(file.slice(0, i))) i = file.lastIndexOf('/', i - 1);
    if (i <= 0) result.push(file);
  }
  return result.sort();
}

/** Runs one SQL text, answering its rows (a Drizzle database, or a PGlite of its own). */
export type Query = (text: string) => Promise<Record<string, unknown>[]>;

export const queryOf =
  (db: Db): Query =>
  async (text) =>
    ((await db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The naming rows of a database; tables and columns an older schema lacks read as none. */
export async function readNamingRows(query: Query): Promise<NamingRows> {
  const names = TABLES.map((table) => `'${table}'`).join(', ');
  const existing = new Set(
    (
      await query(
        'select table_name, column_name from information_schema.columns ' +
          `where table_schema = 'public' and table_name in (${names})`,
      )
    ).map((row) => `${row.table_name}.${row.column_name}`),
  );
  const rows = {} as NamingRows;
  for (const table of TABLES) {
    const columns = COLUMNS[table].filter((column) => existing.has(`${table}.${column}`));
    rows[table] =
      columns.length === 0
        ? []
        : (
            await query(
              `select ${columns.map((c) => `"${c}"::text as "${c}"`).join(', ')} from "${table}"`,
            )
          ).map((row) => pick(table, row));
  }
  return rows;
}

/**
 * The naming rows of a pg_dump custom-format file, as `pg_restore` writes their COPY data (read
 * from the dump itself, so they are exactly what a restore of it holds).
 */
export function readDumpNamingRows(dumpFile: string): Promise<NamingRows> {
  const rows = Object.fromEntries(TABLES.map((table) => [table, []])) as unknown as NamingRows;
  const args = ['--data-only', ...TABLES.flatMap((table) => ['--table', table])];
  const child = spawn('pg_restore', [...args, '--file=-', dumpFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const parsed = (async () => {
    let table: Table | null = null;
    let columns: string[] = [];
    for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: 0 })) {
      if (columns.length > 0) {
        if (line === '\\.') {
          columns = [];
        } else if (table) {
          const values = line.split('\t');
          rows[table].push(
            pick(table, Object.fromEntries(columns.map((c, i) => [c, copyValue(values[i] ?? '')]))),
          );
        }
        continue;
      }
      const copy = /^COPY (\S+) \((.*)\) FROM stdin;$/.exec(line);
      if (!copy) continue;
      const name = unquote((copy[1] ?? '').split('.').pop() ?? '');
      table = (TABLES as string[]).includes(name) ? (name as Table) : null;
      columns = (copy[2] ?? '').split(', ').map(unquote);
    }
  })();
  return Promise.all([exited, parsed]).then(
    ([code]) => {
      if (code !== 0) throw new Error(`pg_restore could not read ${dumpFile}: ${stderr.trim()}`);
      return rows;
    },
    (error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT'
        ? new Error(
            'pg_restore was not found: install the PostgreSQL client tools (apt-get install postgresql-client)',
          )
        : error;
    },
  );
}

const unquote = (name: string) =>
  name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name;

const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A value of COPY's text format: `\N` is NULL; COPY TO escapes only \b \f \n \r \t \v and `\\`. */
export function copyValue(field: string): string | null {
  if (field === '\\N') return null;
  return field.replace(/\\(.)/g, (_, char: string) => ESCAPED[char] ?? char);
}

/** Keys for a message: the first five, and how many more. */
export const listed = (keys: string[]): string =>
  keys.length <= 5 ? keys.join(', ') : `${keys.slice(0, 5).join(', ')} and ${keys.length - 5} more`;
