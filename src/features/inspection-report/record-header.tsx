import type { ReactNode, Ref } from 'react';
import { StatusTag } from '../../components/tag.tsx';
import { UserText } from '../../components/user-text.tsx';
import { lengthInSeconds } from '../../lib/format-duration.ts';
import { recordTime } from '../../lib/record-time.ts';
import type { InspectionReport } from '../../types/api.ts';
import { EvidenceCheckButton } from './evidence-check.tsx';
import { reportStrings as s } from './strings.ts';

const orDash = (value: string | null | undefined) => value || '—';

/** The record's header: line, products and batches, operator, times, status, device, video. */
export function RecordHeader({ report }: { report: InspectionReport }) {
  const rows: [string, ReactNode][] = [
    ['Line', report.lineName],
    ['Operator', report.operatorName],
    ['Start', recordTime(report.startTime, true)],
    ['End', recordTime(report.endTime, true)],
    // Start and end are the device's clock; this is the server's (a late arrival is a flag).
    [
      'Received by the server',
      report.receivedAt ? recordTime(report.receivedAt, true) : 'not recorded',
    ],
    [
      'Product / batch leaving',
      `${orDash(report.productLeaving)} / ${orDash(report.batchLeaving)}`,
    ],
    ['Product / batch coming', `${orDash(report.productComing)} / ${orDash(report.batchComing)}`],
    [
      'Operator notes',
      report.operatorNotes ? <UserText key="notes" text={report.operatorNotes} /> : '—',
    ],
    // The phone or tablet the operator chose (registered by its QR label); 'Unknown' once deleted.
    [
      'Device',
      report.device ? `${report.device.name ?? 'Unknown'} (${report.device.id})` : 'not recorded',
    ],
    // Whole seconds, floored, as every screen counts a length (lib/format-duration.ts).
    [
      'Video',
      report.video
        ? `${report.video.filename} (${lengthInSeconds(report.video.duration) ?? 'length unknown'})`
        : 'none',
    ],
    ['Video SHA-256', report.video?.sha256 ?? 'not recorded'],
    ['Analysis version', report.video?.analysisVersion ?? 'not recorded'],
  ];
  return (
    <section className="report-panel" aria-labelledby="report-record">
      <h2 id="report-record">
        {s.record} <StatusTag status={report.status} />
      </h2>
      <dl className="report-fields">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={label.includes('SHA') ? 'report-hash' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * 21 CFR 11.50: the signer's printed name, the date and time, and the meaning, on screen. Focusable
 * (`ref`), so a new signature is announced where Approve and Reject were.
 */
export function SignatureBlock({
  report,
  ref,
}: {
  report: InspectionReport;
  ref?: Ref<HTMLElement>;
}) {
  const signature = report.signature;
  return (
    <section ref={ref} tabIndex={-1} className="report-panel" aria-labelledby="report-signature">
      <h2 id="report-signature">{s.signature}</h2>
      {signature ? (
        <dl className="report-fields">
          <div>
            <dt>Signed by</dt>
            <dd>
              {signature.signerName} ({signature.signerEmail})
            </dd>
          </div>
          <div>
            <dt>Date and time</dt>
            <dd>{recordTime(signature.signedAt, true)}</dd>
          </div>
          <div>
            <dt>Meaning</dt>
            <dd>{signature.statement}</dd>
          </div>
          <div>
            <dt>Notes</dt>
            <dd>{signature.notes ? <UserText text={signature.notes} /> : '—'}</dd>
          </div>
          <div>
            <dt>Signed record hash</dt>
            <dd className="report-hash">{signature.recordHash}</dd>
          </div>
        </dl>
      ) : (
        <p>{s.notSigned}</p>
      )}
      {report.unchangedSinceSigning === false && (
        <p className="report-warning" role="alert">
          {s.changedAfterSigning}
          {report.changedParts.length > 0 && ` ${s.changedParts(report.changedParts)}`}
        </p>
      )}
      {report.unchangedSinceSigning && <p className="muted">{s.unchangedSinceSigning}</p>}
      {report.notCoveredBySignature && (
        <p className="report-warning">{report.notCoveredBySignature}</p>
      )}
      {report.flagsSinceSigning && <p className="report-warning">{report.flagsSinceSigning}</p>}
      <EvidenceCheckButton inspectionId={report.inspectionId} />
    </section>
  );
}
