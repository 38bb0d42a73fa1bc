// Checks the audit trail's hash chain (migration 0007, docs/audit-trail.md): every row's prev_hash
// is the hash of the row before it, and its hash is SHA-256 of prev_hash followed by the row's
// canonical text. The hashes are recomputed here, in Node, from the rows as they are now.
import { hash as oneShotHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export const GENESIS_HASH = '0'.repeat(64);
const hash256 = (text: string) => oneShotHash('sha256', text, 'hex');
const BATCH = 5_000;

export interface TrailBreak {
  id: number;
  /** 'hash': the row's content no longer matches its hash (it was edited); 'link': its prev_hash
   *  does not match the row before (a row was removed, inserted or its hash rewritten). */
  problem: 'hash' | 'link';
}

export interface TrailVerification {
  ok: boolean;
  /** Entries checked: the whole trail. */
  checked: number;
  /** The last entry's hash when the whole trail verifies: quote it to anchor the trail. */
  headHash: string | null;
  firstBroken: TrailBreak | null;
  /** Every entry that does not verify (past the first break each is checked on its own). */
  brokenCount: number;
  /** The first of them, in id order, at most `LISTED_BREAKS`. */
  broken: TrailBreak[];
}

export const LISTED_BREAKS = 100;

export interface ChainRow extends Record<string, unknown> {
  id: string;
  prev_hash: string | null;
  hash: string | null;
  canonical: string;
}

export type ChainCheck =
  | { ok: true; last: string }
  | { ok: false; id: number; problem: 'hash' | 'link'; checked: number };

/** Checks a run of consecutive rows that follow the row whose hash is `previous`. */
export function checkChain(rows: readonly ChainRow[], previous: string): ChainCheck {
  let last = previous;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as ChainRow;
    if (row.prev_hash !== last)
      return { ok: false, id: Number(row.id), problem: 'link', checked: i + 1 };
    // One-shot hashing: a Hash object per row would cost twice the hashing itself.
    const hash = hash256(last + row.canonical);
    if (row.hash !== hash)
      return { ok: false, id: Number(row.id), problem: 'hash', checked: i + 1 };
    last = hash;
  }
  return { ok: true, last };
}

/** One batch of the trail after entry `after`, with each row's canonical text (migrations 0007 and 0009). */
export async function readChain(db: Db, after: number, limit = BATCH): Promise<ChainRow[]> {
  const { rows } = (await db.execute(sql`
    select id, prev_hash, hash, audit_log_canonical(a) as canonical
    from audit_log a where id > ${after} order by id limit ${limit}`)) as unknown as {
    rows: ChainRow[];
  };
  return rows;
}

/**
 * Past a break, each row on its own: its content against its own hash, its prev_hash against the
 * stored hash of the row before. An edited entry is reported alone, not every entry after it.
 */
function surveyChain(
  rows: readonly ChainRow[],
  previous: string,
): { breaks: TrailBreak[]; last: string } {
  const breaks: TrailBreak[] = [];
  let last = previous;
  for (const row of rows) {
    const id = Number(row.id);
    if (row.hash !== hash256((row.prev_hash ?? '') + row.canonical))
      breaks.push({ id, problem: 'hash' });
    else if (row.prev_hash !== last) breaks.push({ id, problem: 'link' });
    last = row.hash ?? '';
  }
  return { breaks, last };
}

/**
 * Walks the whole trail in id order, in batches: chained until the first break, then each entry
 * on its own, so the answer says how many entries do not verify and which.
 */
export async function verifyTrail(db: Db): Promise<TrailVerification> {
  let previous = GENESIS_HASH;
  let after = 0;
  let checked = 0;
  let brokenCount = 0;
  const broken: TrailBreak[] = [];
  for (;;) {
    const rows = await readChain(db, after);
    // Chained until the first break; from it on, each row on its own.
    let rest: readonly ChainRow[] = rows;
    if (brokenCount === 0) {
      const result = checkChain(rows, previous);
      if (result.ok) {
        previous = result.last;
        rest = [];
      } else {
        // The rows before the break verified: their stored hashes are the computed ones.
        const at = result.checked - 1;
        previous = rows[at - 1]?.hash ?? previous;
        rest = rows.slice(at);
      }
    }
    if (rest.length > 0) {
      const survey = surveyChain(rest, previous);
      brokenCount += survey.breaks.length;
      broken.push(...survey.breaks.slice(0, LISTED_BREAKS - broken.length));
      previous = survey.last;
    }
    checked += rows.length;
    after = Number(rows[rows.length - 1]?.id ?? after);
    if (rows.length < BATCH) break;
  }
  const ok = brokenCount === 0;
  return {
    ok,
    checked,
    headHash: ok && checked ? previous : null,
    firstBroken: broken[0] ?? null,
    brokenCount,
    broken,
  };
}
/** How one entry stands against the chain: 'hash' and 'link' as in `firstBroken`. */
export type EntryCheck = 'ok' | 'hash' | 'link';

/**
 * Checks single entries without walking the trail: each one's hash against its content, its
 * prev_hash against the entry before it, and the entry after it against its hash. An entry edited
 * behind the server's back fails the first; one rewritten with a new hash, or a neighbour removed,
 * fails a link. For a record's history (the PDF), where the whole trail may be millions of rows.
 */
export async function checkEntries(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, EntryCheck>> {
  const checks = new Map<number, EntryCheck>();
  if (!ids.length) return checks;
  const { rows } = (await db.execute(sql`
    select a.id, a.prev_hash, a.hash, audit_log_canonical(a) as canonical,
      (select p.hash from audit_log p where p.id < a.id order by p.id desc limit 1) as before_hash,
      (select n.prev_hash from audit_log n where n.id > a.id order by n.id limit 1) as after_prev
    from audit_log a where a.id = any(${`{${ids.join(',')}}`}::bigint[])`)) as unknown as {
    rows: (ChainRow & { before_hash: string | null; after_prev: string | null })[];
  };
  for (const row of rows) {
    const linked =
      row.prev_hash === (row.before_hash ?? GENESIS_HASH) &&
      (row.after_prev === null || row.after_prev === row.hash);
    const check =
      row.hash !== hash256((row.prev_hash ?? '') + row.canonical) ? 'hash' : linked ? 'ok' : 'link';
    checks.set(Number(row.id), check);
  }
  return checks;
}
