// What changed in a pending record since a reviewer's page showed it (docs/signatures.md, "What
// the signer reviewed"). A signature names the report its signer reviewed (its record hash) and a
// disposition the decision its page showed; a record that differs is refused (409) in words
// saying what changed, by whom and when, so nobody signs, or overwrites, a decision they never saw.
import { and, desc, eq } from 'drizzle-orm';
import { byWhomWhen } from '../audit/who-when.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { conflict, type HttpError } from '../http/errors.ts';
import type { Disposition, DispositionKind, SeenDisposition } from '../schemas/reports.ts';
import { evidenceDigest, type KeyframesReader, readEvidence } from './evidence.ts';
import { currentLayout, layoutDigest } from './layout.ts';
import { currentNames, type InspectionRecord, type KeptDigest, recordHash } from './record.ts';
import { currentDevice, deviceDigest } from './recording-device.ts';
import { seconds } from './report.ts';

/** A detection as the trail names it (the disposition entry's `detection`). */
export interface DetectionRef {
  keyframe: string;
  label: string | null;
  confidence: number | null;
}

/** 'detection at 8.00 s (carton 91%)': its time as the report's flags give it, and its object. */
function detectionName(detection: DetectionRef): string {
  const time = seconds(Number.parseFloat(detection.keyframe));
  if (!detection.label) return `detection at ${time}`;
  const confidence =
    detection.confidence === null ? '' : ` ${(detection.confidence * 100).toFixed(0)}%`;
  return `detection at ${time} (${detection.label}${confidence})`;
}

const decided: Record<DispositionKind, string> = {
  confirmed: 'confirmed as a finding',
  dismissed: 'dismissed as a false positive',
};

/** Who made a disposition and when ('by you' from another tab). */
const decidedBy = (disposition: Disposition, user: AuthUser) =>
  byWhomWhen(disposition.reviewerId === user.id ? 'you' : disposition.reviewerName, disposition.at);

/** Whether the disposition a page showed (null: none) is the one stored (null: none). */
export function isSeen(seen: SeenDisposition | null, stored: Disposition | null): boolean {
  if (!seen || !stored) return seen === stored;
  return seen.disposition === stored.disposition && Date.parse(seen.at) === Date.parse(stored.at);
}

/** The 409 for a decision over another one than the page showed. */
export function decidedMeanwhile(
  detection: DetectionRef,
  stored: Disposition | null,
  user: AuthUser,
): HttpError {
  const what = stored
    ? `was ${decided[stored.disposition]} ${decidedBy(stored, user)}`
    : 'has lost its decision';
  return conflict(
    `The ${detectionName(detection)} ${what} since you opened the report. Review it again, then decide.`,
  );
}

type Ctx = Pick<AppContext, 'storage'> & { db: Db | Tx };

/**
 * What the record hash of a record not yet signed covers besides its rows, read as its report
 * reads it (report.ts): the names, the line's layout, the evidence's cheap digests and the device.
 */
async function pendingBasis(
  ctx: Ctx,
  record: InspectionRecord,
  keyframes: KeyframesReader,
): Promise<KeptDigest> {
  const names = await currentNames(ctx.db, record.inspection);
  const layout = await currentLayout(ctx, record.inspection.lineClearanceId, record.video);
  const evidence = evidenceDigest(await readEvidence(ctx, record, keyframes));
  const device = deviceDigest(record, await currentDevice(ctx.db, record.video));
  return { ...names, layout: layoutDigest(layout), evidence, device };
}

/** One disposition entry of the trail: the decision before it and the one it stored. */
interface DecisionChange {
  old: Disposition | null;
  now: Disposition & { detection: DetectionRef };
}

/** How many of the latest disposition entries a refusal looks back through to explain itself. */
const LOOK_BACK = 200;

/**
 * The disposition changes made since the record hashed as `reviewed`, oldest first: the
 * record's latest disposition entries undone one by one until it does. Null when none of them
 * gives it back (something else changed, or the hash was never this record's).
 */
async function decisionsSince(
  db: Db | Tx,
  record: InspectionRecord,
  reviewed: string,
  hashWith: (dispositions: Disposition[]) => string,
): Promise<DecisionChange[] | null> {
  const entries = await db
    .select({ oldValue: auditLog.oldValue, newValue: auditLog.newValue })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'inspection'),
        eq(auditLog.entityId, record.inspection.id),
        eq(auditLog.action, 'disposition'),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(LOOK_BACK);
  const state = new Map(record.dispositions.map((d) => [d.predictionId, d]));
  const undone: DecisionChange[] = [];
  for (const entry of entries) {
    const change = { old: entry.oldValue, now: entry.newValue } as DecisionChange;
    if (change.old) state.set(change.now.predictionId, change.old);
    else state.delete(change.now.predictionId);
    undone.unshift(change);
    // In the record's order (readRecord's, by prediction id).
    const dispositions = [...state.values()].sort((a, b) =>
      a.predictionId < b.predictionId ? -1 : a.predictionId > b.predictionId ? 1 : 0,
    );
    if (hashWith(dispositions) === reviewed) return undone;
  }
  return null;
}

/** How many changed detections a refusal names before '…and n more'. */
const NAMED = 3;

/** The changes in words, one a detection: what it is now, by whom and when, and what was shown. */
function changesText(changes: DecisionChange[], user: AuthUser): string {
  const detections = new Map<string, { shown: Disposition | null; now: DecisionChange['now'] }>();
  for (const { old, now } of changes) {
    const earlier = detections.get(now.predictionId);
    detections.set(now.predictionId, { shown: earlier ? earlier.shown : old, now });
  }
  const said = [...detections.values()].map(({ shown, now }) => {
    const name = `the ${detectionName(now.detection)}`;
    const how = decided[now.disposition];
    if (shown?.disposition === now.disposition) {
      const reason = shown.reason === now.reason ? '' : ', with another reason';
      return `${name} was ${how} again ${decidedBy(now, user)}${reason}`;
    }
    const was = shown ? decided[shown.disposition] : 'without a decision';
    return `${name} was ${how} ${decidedBy(now, user)} (your page showed it ${was})`;
  });
  const more = said.length - NAMED;
  return more > 0 ? `${said.slice(0, NAMED).join('; ')}; and ${more} more` : said.join('; ');
}

/**
 * Refuses (409) a signature over a record that no longer hashes as the report its signer reviewed
 * (`reviewed`: that report's `recordHash`; none, from a script: not checked), naming the decisions
 * on detections changed since, by whom and when, or else the parts that may have changed. Under
 * the signing transaction's locks, the record compared is the one signed.
 */
export async function refuseUnreviewed(
  ctx: Ctx,
  user: AuthUser,
  record: InspectionRecord,
  reviewed: string | undefined,
  keyframes: KeyframesReader,
): Promise<void> {
  if (reviewed === undefined) return;
  const basis = await pendingBasis(ctx, record, keyframes);
  const hashWith = (dispositions: Disposition[]) =>
    recordHash({ ...record, dispositions }, null, basis);
  if (hashWith(record.dispositions) === reviewed) return;
  const changes = await decisionsSince(ctx.db, record, reviewed, hashWith);
  const what = changes
    ? changesText(changes, user)
    : 'its video or analysis, its capture data, a decision on a detection, or the names or floor plan it is drawn on differ from what your page showed';
  throw conflict(`The record changed since you opened it: ${what}. Review it again, then sign.`);
}
