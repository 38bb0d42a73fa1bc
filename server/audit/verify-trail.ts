// Checks the audit trail's hash chain (migration 0005, docs/audit-trail.md): every row's prev_hash
// is the hash of the row before it, and its hash is SHA-256 of prev_hash followed by the row's
// canonical text. The hashes are recomputed here, in Node, from the rows as they are now.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export const GENESIS_HASH = '0'.repeat(64);
const BATCH = 5_000;

export interface TrailVerification {
  ok: boolean;
  /** Entries checked (up to and including the first broken one). */
  checked: number;
  /** The last entry's hash when the whole trail verifies: quote it to anchor the trail. */
  headHash: string | null;
  firstBroken: {
    id: number;
    /** 'hash': the row's content no longer matches its hash; 'link': its prev_hash does not
     *  match the row before (a row was removed, inserted or its hash rewritten). */
    problem: 'hash' | 'link';
  } | null;
}

interface ChainRow extends Record<string, unknown> {
  id: string;
  prev_hash: string | null;
  hash: string | null;
  canonical: string;
}

/** Walks the whole trail in id order, in batches; stops at the first broken link. */
export async function verifyTrail(db: Db): Promise<TrailVerification> {
  let previous = GENESIS_HASH;
  let after = 0;
  let checked = 0;
  for (;;) {
    const { rows } = (await db.execute(sql`
      select id, prev_hash, hash, audit_log_canonical(a) as canonical
      from audit_log a where id > ${after} order by id limit ${BATCH}`)) as unknown as {
      rows: ChainRow[];
    };
    for (const row of rows) {
      checked++;
      const id = Number(row.id);
      if (row.prev_hash !== previous) {
        return { ok: false, checked, headHash: null, firstBroken: { id, problem: 'link' } };
      }
      const hash = createHash('sha256')
        .update(previous + row.canonical)
        .digest('hex');
      if (row.hash !== hash) {
        return { ok: false, checked, headHash: null, firstBroken: { id, problem: 'hash' } };
      }
      previous = hash;
      after = id;
    }
    if (rows.length < BATCH) break;
  }
  return { ok: true, checked, headHash: checked ? previous : null, firstBroken: null };
}
