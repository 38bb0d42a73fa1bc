// The record's electronic copy (21 CFR 11.10(b): complete copies in human-readable and electronic
// form, for inspection and copying by the agency). One JSON file: what the record hash is taken
// of, so anyone can hash it again without this system; the report as the page shows it; the
// evidence files as checked when the copy was made; and the record's whole history from the
// trail, each entry with its chain hashes and how it checked against them.
import { checkedRecordHistory } from '../audit/record-history.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { iso } from '../ids.ts';
import { checkEvidenceFiles, keyframesReader } from './evidence.ts';
import type { InspectionRecord } from './record.ts';
import { buildReportWithContent } from './report.ts';

/** Named in the copy, so a reader knows which layout it has; raised when the layout changes. */
export const COPY_FORMAT = 'line-clearance-record/1';

export const HOW_TO_VERIFY =
  'recordHash is the SHA-256 (hex) of "hashed" written as canonical JSON: object keys sorted at ' +
  'every level (by UTF-16 code units), no whitespace, strings and numbers as JSON writes them, ' +
  'encoded in UTF-8 (as RFC 8785). The record is unchanged since signing when recordHash equals ' +
  'report.signature.recordHash. Each history entry\'s "hash" is the SHA-256 of its "prevHash" ' +
  'followed by the entry\'s canonical text in the database; "chain" says how it checked ' +
  "('ok', 'hash': edited, 'link': a neighbour removed or rewritten).";

export async function electronicCopy(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  user: AuthUser,
  record: InspectionRecord,
  at: Date,
) {
  const keyframes = keyframesReader(ctx.storage);
  const { report, hashed } = await buildReportWithContent(ctx, user, record, keyframes);
  const evidenceCheck = await checkEvidenceFiles(ctx.storage, record, at, keyframes);
  return {
    format: COPY_FORMAT,
    exportedAt: iso(at),
    exportedBy: { name: user.name, email: user.email },
    howToVerify: HOW_TO_VERIFY,
    recordHash: report.recordHash,
    hashed,
    report,
    evidenceCheck,
    history: await checkedRecordHistory(ctx.db, report.inspectionId),
  };
}
