// Approve and reject as electronic signatures (21 CFR 11.50, 11.200; docs/signatures.md): the signer
// enters both components, the user ID and the password; the server checks the signing rules and
// that the record is still the one the signer reviewed (review-changes.ts), hashes the evidence
// files (a video file that no longer matches its SHA-256 is not signed over), then writes the
// signature (with the hash of what was signed), the inspection's new status and the audit entry in
// one transaction.
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.ts';
import { dayAndTime } from '../audit/who-when.ts';
import { type FailureReason, refuseCheck } from '../auth/credentials.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { databaseNow } from '../db/database-now.ts';
import { inspections, signatures, users } from '../db/schema.ts';
import { denied } from '../http/auth-hook.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { iso } from '../ids.ts';
import { givesReason, MIN_REASON_WORDS } from '../schemas/review-notes.ts';
import type { SignatureMeaning, SignBody } from '../schemas/signatures.ts';
import { NOT_YOUR_USER_ID } from '../schemas/signer-user-id.ts';
import {
  type EvidenceFiles,
  evidenceDigest,
  filesBasis,
  hashEvidenceFiles,
  type KeyframesReader,
  keyframesReader,
  readEvidence,
} from './evidence.ts';
import { currentLayout, keepLayout, lockLayout } from './layout.ts';
import {
  currentNames,
  type InspectionRecord,
  lockInspection,
  readRecord,
  recordHash,
  type SignatureFields,
  signatureStatements,
} from './record.ts';
import { currentDevice, deviceDigest } from './recording-device.ts';
import {
  alreadySigned,
  approvalBlocker,
  approvalExceptions,
  buildReport,
  REPORT_RULES_VERSION,
  signContext,
  signRules,
} from './report.ts';
import { refuseUnreviewed } from './review-changes.ts';
import { alertIfSignedAfterReset } from './signed-after-reset.ts';

export const WRONG_PASSWORD = 'The password is incorrect; nothing was signed';
const reasonRule = `at least ${MIN_REASON_WORDS} different words`;

/**
 * Checks the first component (21 CFR 11.200(a)(1)): the user ID entered is the signed-in signer's
 * email, compared as the sign-in compares emails. Before the password, and not through the
 * credential guard: another ID is no password guess, so it costs no hash and no lockout count.
 * The failure goes on the inspection's trail; nothing is signed.
 */
async function checkSignerUserId(
  request: FastifyRequest,
  user: AuthUser,
  inspectionId: string,
  meaning: SignatureMeaning,
  userId: string,
): Promise<void> {
  // Emails are kept in lower case (the user_emails_lower_case check).
  if (userId.trim().toLowerCase() === user.email) return;
  await audit(request.server.ctx.db, request, {
    action: 'signature.failed',
    entity: 'inspection',
    entityId: inspectionId,
    newValue: { meaning, reason: "user ID not the signer's" },
  });
  throw new HttpError(403, NOT_YOUR_USER_ID);
}

/**
 * Checks the signer's password through the credential guard, so a wrong one counts toward the
 * login lockout like a failed sign-in (and a locked account cannot sign). A failure also goes on
 * the inspection's own trail; nothing is signed.
 */
async function checkSignerPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  user: AuthUser,
  inspectionId: string,
  meaning: SignatureMeaning,
  password: string,
): Promise<void> {
  const check = await request.server.ctx.credentials.check(
    request,
    { userId: user.id },
    password,
    'e-signature',
  );
  if (check.ok) return;
  await audit(request.server.ctx.db, request, {
    action: 'signature.failed',
    entity: 'inspection',
    entityId: inspectionId,
    newValue: { meaning, reason: check.status === 429 ? 'too many failed attempts' : check.reason },
  });
  refuseCheck(
    reply,
    check,
    new HttpError(403, check.status === 401 ? refusal(check) : WRONG_PASSWORD),
  );
}

/**
 * The signer's own account, signed in: its lock is said (the sign-in never says it), or a signer
 * told only 'incorrect' takes the right password for a forgotten one.
 */
function refusal({ reason, lockedUntil }: { reason: FailureReason; lockedUntil: Date | null }) {
  if (!lockedUntil) return WRONG_PASSWORD;
  // To the next whole minute: 18:06 for a lock ending 18:06:42 refused a try at 18:06:05 (QA).
  const minute = new Date(Math.ceil(lockedUntil.getTime() / 60_000) * 60_000);
  const until = `until ${dayAndTime(minute)}, or until an administrator unlocks it`;
  return reason === 'account locked'
    ? `Your account is locked after too many wrong passwords, ${until}; nothing was signed`
    : `${WRONG_PASSWORD}. That was too many wrong passwords: your account is locked ${until}`;
}

/** A signature or a disposition refused because the record is signed (409 naming the signature). */
export class SignedRecordRefusal extends HttpError {
  readonly inspectionId: string;
  constructor(record: Pick<InspectionRecord, 'inspection' | 'signature'>) {
    super(409, alreadySigned(record));
    this.inspectionId = record.inspection.id;
  }
}

/** Files the refusal under the signed record, as a protection of its evidence. */
const auditSignedRefusal = (request: FastifyRequest, refusal: SignedRecordRefusal) =>
  request.server.ctx.refusals.record(request, refusal.message, 'evidence.protected', {
    entity: 'inspection',
    entityId: refusal.inspectionId,
  });

/**
 * Awaits a transaction that refuses a record found signed under its lock (a race lost) with
 * `SignedRecordRefusal`, and audits that refusal after the rollback: written inside the
 * transaction, the entry would be rolled back with it.
 */
export async function withSignedRefusalAudited<T>(
  request: FastifyRequest,
  transaction: Promise<T>,
): Promise<T> {
  try {
    return await transaction;
  } catch (error) {
    if (error instanceof SignedRecordRefusal) await auditSignedRefusal(request, error);
    throw error;
  }
}

/**
 * Refuses, audit-logged, whatever the signing rules refuse (403); another line's record is not found
 * (404) and a signed one a conflict (409). Called
 * outside a transaction: the refusal's audit entry must commit although the call fails.
 */
export async function checkSigner(
  request: FastifyRequest,
  user: AuthUser,
  record: InspectionRecord,
): Promise<void> {
  const context = await signContext(request.server.ctx.db, user, record.inspection);
  const rules = signRules(user, record, context);
  // Each refusal is in the trail (21 CFR 11.10(e)): a second signature under the record it tried
  // to change, and a try on another manager's line under the route, whose answer is 404 because
  // the record does not exist for the caller.
  if (rules.refusal === 'signed') {
    const refusal = new SignedRecordRefusal(record);
    await auditSignedRefusal(request, refusal);
    throw refusal;
  }
  if (rules.refusal === 'scope') {
    await request.server.ctx.refusals.record(request, 'not the manager of this line clearance');
    throw notFound('Inspection');
  }
  // The signer reads why (the report and the cards say it before anyone tries).
  if (rules.refusal) await denied(request, rules.reason, rules.reason);
}

/** The inspection's fields a signature changes (the audit entry's old and new values). */
export const reviewFields = (row: InspectionRecord['inspection']) => ({
  status: row.status,
  reviewerId: row.reviewerId,
  reviewNotes: row.reviewNotes,
  reviewedAt: row.reviewedAt ? iso(row.reviewedAt) : null,
});

/**
 * A video file that no longer matches its recorded SHA-256 is no evidence that the line is clear
 * (409); it is a reason to reject, so a rejection stays possible.
 */
function refuseUnmatchedVideo(
  record: InspectionRecord,
  files: EvidenceFiles,
  meaning: SignatureMeaning,
): void {
  if (meaning !== 'approved') return;
  const sha = record.video?.sha256;
  const onlyRejected = 'it cannot be approved as clear, only rejected';
  if (files.video === 'differs') {
    throw conflict(`The video file does not match its recorded SHA-256 (${sha}); ${onlyRejected}`);
  }
  if (files.video === 'missing') {
    throw conflict(
      `The video file is missing from storage (its recorded SHA-256 is ${sha}); ${onlyRejected}`,
    );
  }
}

/**
 * Writes the signature row: the fields, the names, layout, evidence digests and device the record
 * shows now (kept with it, so the signed record shows them as signed) and the hash over all of it.
 * `files`: the video file and keyframe images hashed before the transaction; hashed here when not
 * given, or when they were hashed for other files (an analysis re-run meanwhile). `keyframes`: the
 * request's reader, when its earlier steps read the keyframes file. Answers the hash.
 */
export async function writeSignature(
  ctx: Pick<AppContext, 'storage'> & { db: Tx },
  record: InspectionRecord,
  fields: SignatureFields,
  files?: EvidenceFiles,
  keyframes?: KeyframesReader,
): Promise<string> {
  await lockLayout(ctx.db, record.inspection.lineClearanceId, 'share');
  const drawn = await currentLayout(ctx, record.inspection.lineClearanceId, record.video);
  const { kept, digest } = keepLayout(drawn);
  const names = await currentNames(ctx.db, record.inspection);
  const device = await currentDevice(ctx.db, record.video);
  const read = await readEvidence(ctx, record, keyframes);
  const cheap = evidenceDigest(read);
  const hashed =
    files?.basis === filesBasis(record.video, cheap.keyframesSha256)
      ? files
      : await hashEvidenceFiles(ctx.storage, record.video, read.keyframes);
  refuseUnmatchedVideo(record, hashed, fields.meaning);
  const evidence = { ...cheap, keyframeImagesSha256: hashed.keyframeImagesSha256 };
  const hash = recordHash(record, fields, {
    ...names,
    layout: digest,
    evidence,
    device: deviceDigest(record, device),
  });
  await ctx.db.insert(signatures).values({
    ...fields,
    inspectionId: record.inspection.id,
    signedAt: new Date(fields.signedAt),
    recordHash: hash,
    kept: { ...names, layout: kept, evidence, device, rules: REPORT_RULES_VERSION },
  });
  return hash;
}

/**
 * The record's own rules for a signature of this meaning: a rejection's reason, and an approval's
 * evidence (a verified, analysed video) and its reason where flags stay open. Checked before the
 * password, to refuse at once, and again under the row lock, where a video deleted or a disposition
 * changed meanwhile is seen.
 */
async function checkRecordRules(
  ctx: Pick<AppContext, 'storage'> & { db: AppContext['db'] | Tx },
  user: AuthUser,
  record: InspectionRecord,
  meaning: SignatureMeaning,
  notes: string,
  keyframes: KeyframesReader,
): Promise<void> {
  if (meaning === 'rejected' && !givesReason(notes)) {
    throw badRequest(`body.notes must give the reason for a rejection (${reasonRule})`);
  }
  if (meaning === 'approved') {
    const blocker = approvalBlocker(record);
    if (blocker) throw conflict(`${blocker}; it cannot be approved as clear, only rejected`);
    const exceptions = approvalExceptions((await buildReport(ctx, user, record, keyframes)).flags);
    if (exceptions && !givesReason(notes)) {
      throw badRequest(`body.notes must say why the line is clear (${reasonRule}): ${exceptions}`);
    }
  }
}

/**
 * Signs `record` (read under its row lock, rules checked): the signature row, the inspection's
 * review fields and the approve/reject entry dated with the signature's own time, to the
 * millisecond. The demo loader signs its records with it too.
 */
export async function writeSigned(
  ctx: Pick<AppContext, 'storage'> & { db: Tx },
  actor: Parameters<typeof audit>[1],
  record: InspectionRecord,
  signing: {
    signer: { id: string; name: string; email: string };
    meaning: SignatureMeaning;
    notes: string;
    signedAt: Date;
  },
  /** The evidence files hashed before the transaction (writeSignature). */
  files?: EvidenceFiles,
  keyframes?: KeyframesReader,
): Promise<InspectionRecord> {
  const { signer, meaning, notes, signedAt } = signing;
  const fields = {
    signerId: signer.id,
    signerName: signer.name,
    signerEmail: signer.email,
    meaning,
    statement: signatureStatements[meaning],
    notes,
    signedAt: iso(signedAt),
  };
  const hash = await writeSignature(ctx, record, fields, files, keyframes);
  const inspectionId = record.inspection.id;
  const [row] = await ctx.db
    .update(inspections)
    .set({ status: meaning, reviewerId: signer.id, reviewNotes: notes, reviewedAt: signedAt })
    // The status guard makes two concurrent signatures impossible: one of them updates nothing.
    .where(and(eq(inspections.id, inspectionId), eq(inspections.status, 'pending')))
    .returning();
  if (!row) throw conflict('The inspection was reviewed meanwhile');
  const signed: InspectionRecord = {
    ...record,
    inspection: row,
    signature: { ...fields, recordHash: hash },
  };
  await audit(ctx.db, actor, {
    action: meaning === 'approved' ? 'approve' : 'reject',
    entity: 'inspection',
    entityId: inspectionId,
    oldValue: reviewFields(record.inspection),
    newValue: { ...reviewFields(row), signature: signed.signature },
    at: signedAt,
  });
  return signed;
}

export async function signInspection(
  request: FastifyRequest,
  reply: FastifyReply,
  user: AuthUser,
  inspectionId: string,
  meaning: SignatureMeaning,
  body: SignBody,
): Promise<InspectionRecord> {
  const ctx = request.server.ctx;
  const notes = (body.notes ?? '').trim();
  const current = await readRecord(ctx.db, inspectionId);
  // The rules (an approval's report), the hashing and the signature all read the keyframes file:
  // once for the request.
  const keyframes = keyframesReader(ctx.storage);
  await checkSigner(request, user, current);
  // Before the record's own rules: an approval's notes refused for a flag the signer's page never
  // showed would say nothing of why.
  await refuseUnreviewed(ctx, user, current, body.recordHash, keyframes);
  await checkRecordRules(ctx, user, current, meaning, notes, keyframes);
  await checkSignerUserId(request, user, inspectionId, meaning, body.userId);
  await checkSignerPassword(request, reply, user, inspectionId, meaning, body.password);
  // The whole video and every keyframe image, read before the row lock is taken: no writer waits
  // on it meanwhile. The transaction uses (and refuses a video file that does not match) these
  // hashes only if they are of the files it signs: a video deleted meanwhile is refused as such.
  const files = await hashEvidenceFiles(ctx.storage, current.video, await keyframes(current.video));
  const signing = ctx.db.transaction(async (tx) => {
    // The inspection's row lock first: a change of its evidence in flight (an analysis committing,
    // which holds the same lock) finishes before the record is read, so what is hashed is what is
    // committed; and one that starts later sees the signature (refuseIfSignedEvidence).
    await lockInspection(tx, inspectionId);
    const record = await readRecord(tx, inspectionId);
    if (record.signature || record.inspection.status !== 'pending') {
      throw new SignedRecordRefusal(record);
    }
    const inTx = { db: tx, storage: ctx.storage };
    // The line's plan held as the signature holds it, so the one compared is the one signed.
    await lockLayout(tx, record.inspection.lineClearanceId, 'share');
    await refuseUnreviewed(inTx, user, record, body.recordHash, keyframes);
    await checkRecordRules(inTx, user, record, meaning, notes, keyframes);
    const [signer] = await tx.select().from(users).where(eq(users.id, user.id));
    // The trail's clock, not this process's: the signature and its entry carry the same time.
    const signedAt = await databaseNow(tx);
    const signed = await writeSigned(
      inTx,
      request,
      record,
      {
        signer: {
          id: user.id,
          name: signer?.name ?? user.name,
          email: signer?.email ?? user.email,
        },
        meaning,
        notes,
        signedAt,
      },
      files,
      keyframes,
    );
    await alertIfSignedAfterReset(tx, request, {
      signerId: user.id,
      inspectionId,
      meaning,
      signedAt,
    });
    return signed;
  });
  return withSignedRefusalAudited(request, signing);
}
