// A signature soon after someone else reset the signer's password is a security alert (21 CFR
// 11.300(d)). The own-password gate makes the signer choose a new password first, but whoever reset
// it can sign in, choose one and sign as that manager within minutes (QA did, as a factory manager
// who may not sign). The trail shows it; the alert makes someone ask the signer whether it was them.
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.ts';
import type { Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { iso } from '../ids.ts';
import type { SignatureMeaning } from '../schemas/signatures.ts';

export const SIGNED_AFTER_RESET = 'signature.after-reset';
/** Long enough for a takeover, short enough that a forgotten password a week ago is not one. */
export const RESET_ALERT_HOURS = 24;

/** Writes the alert entry when another account reset the signer's password in the last day. */
export async function alertIfSignedAfterReset(
  tx: Tx,
  request: FastifyRequest,
  signing: { signerId: string; inspectionId: string; meaning: SignatureMeaning; signedAt: Date },
): Promise<void> {
  const since = new Date(signing.signedAt.getTime() - RESET_ALERT_HOURS * 3600_000);
  // Resets are 'update' entries of the user marked passwordReset (server/routes/users.ts).
  const [reset] = await tx
    .select({ at: auditLog.at, by: auditLog.actorEmail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'user'),
        eq(auditLog.entityId, signing.signerId),
        eq(auditLog.action, 'update'),
        sql`(${auditLog.newValue} ->> 'passwordReset') = 'true'`,
        ne(auditLog.actorId, signing.signerId),
        gt(auditLog.at, since),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!reset) return;
  await audit(tx, request, {
    action: SIGNED_AFTER_RESET,
    entity: 'inspection',
    entityId: signing.inspectionId,
    newValue: {
      meaning: signing.meaning,
      resetBy: reset.by,
      resetAt: iso(reset.at),
      withinHours: RESET_ALERT_HOURS,
    },
  });
}
