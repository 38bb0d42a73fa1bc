import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useParams } from 'wouter';
import { getReport, isInspectionId, reportCopyUrl, reportPdfUrl } from '../../api/get-reports.ts';
import { getVideo } from '../../api/get-video.ts';
import type { ReviewDecision } from '../../api/sign-inspection.ts';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { MediaLink } from '../../components/media-link.tsx';
import { ActionButton } from '../../components/record-card.tsx';
import { RunButton } from '../../components/run-button.tsx';
import { SigningDialog } from '../../components/signing-dialog.tsx';
import { createPlaybackClock } from '../../components/video-review/playback-clock.ts';
import { VideoWorkspace } from '../../components/video-review/video-workspace.tsx';
import { inspectionReportPath, recordHistoryPath } from '../../config/paths.ts';
import { useFocusWhen } from '../../hooks/use-focus-when.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { ApiError } from '../../lib/api-client.ts';
import { hasAnyRole, roleList, trailReaders } from '../../lib/roles.ts';
import { failureText } from '../../lib/run-action.ts';
import { session } from '../../stores/session.ts';
import { toastError } from '../../stores/toasts.ts';
import type { InspectionReport, Video } from '../../types/api.ts';
import { nextPendingInspection } from './api/next-pending.ts';
import { ChecklistSection } from './checklist-section.tsx';
import {
  DISPOSITIONS_HEADING,
  DispositionsSection,
  emptyDetectionsNote,
} from './dispositions-section.tsx';
import { FlagsPanel } from './flags-panel.tsx';
import { RecordHeader, SignatureBlock } from './record-header.tsx';
import { reportStrings as s } from './strings.ts';
import { useSignedMeanwhile } from './use-signed-meanwhile.ts';
import { useToastRoom } from './use-toast-room.ts';
import '../../components/video-review/video-review.css';
import '../../components/report-table.css';
import './inspection-report.css';

const approvalNoteId = 'report-approval-blocker';
/** Who signs inspections (docs/signatures.md): they review the pending queue one by one. */
const signers = ['lc_manager', 'admin'] as const;

/**
 * 'Next pending inspection': opens the next report of the review queue (oldest first) that the
 * caller may sign, or says there is none, so a reviewer goes on without re-filtering /reports.
 */
function NextPendingButton({ report }: { report: InspectionReport }) {
  const [, navigate] = useLocation();
  const userId = useSnapshot(session).info?.id ?? '';
  const [none, setNone] = useState(false);
  const next = async () => {
    try {
      const id = await nextPendingInspection(report, userId);
      if (id) navigate(inspectionReportPath(id));
      else setNone(true);
    } catch (error) {
      const text = failureText(s.nextPendingFailed, error);
      if (text) toastError(text);
    }
  };
  return (
    <>
      {/* The same label while it looks: the focus stays on it and aria-disabled says it is busy. */}
      <RunButton
        label={s.nextPending}
        busyLabel={s.nextPending}
        className="btn btn-secondary"
        onRun={next}
      />
      <p className="muted" role="status">
        {none ? s.noMorePending : ''}
      </p>
    </>
  );
}

/** What the page says when the report does not load: an id naming no inspection reads so. */
function loadError(failure: unknown): string {
  if (!(failure instanceof ApiError)) return s.loadFailed;
  if (failure.status === 404 || failure.status === 400) return s.notFound;
  return failure.serverMessage ?? s.loadFailed;
}

/** How often at most a reader coming back to the tab has the report reloaded. */
const RETURN_RELOAD_MS = 30_000;

/**
 * The report, reloaded after a disposition or a signature changes it, and when the reader comes
 * back to the tab (another reviewer may have signed or decided meanwhile): at most once every
 * RETURN_RELOAD_MS, and not while a dialog is open, whose typed text and signature a new report
 * would disturb.
 */
function useReport(id: string) {
  const [report, setReport] = useState<InspectionReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Only the latest answer is shown: a slow reload never undoes a newer one.
  const asked = useRef(0);
  const askedAt = useRef(0);
  // `quiet`: a reload on the reader's return that fails (the network not back yet after a sleep)
  // leaves the report shown as it was, with no alert; the next return tries again.
  const ask = useCallback(
    (quiet: boolean) => {
      // An id that cannot name a record (a mistyped or cut-off URL) is not asked for: the server
      // would only answer its schema message.
      if (!isInspectionId(id)) {
        setReport(null);
        setError(s.notFound);
        return;
      }
      const mine = ++asked.current;
      askedAt.current = Date.now();
      getReport(id).then(
        (answer) => {
          if (mine !== asked.current) return;
          setReport(answer);
          setError(null);
        },
        (failure: unknown) => {
          if (mine !== asked.current || quiet) return;
          if (failure instanceof ApiError && failure.status === 401) return;
          setError(loadError(failure));
        },
      );
    },
    [id],
  );
  const load = useCallback(() => ask(false), [ask]);
  useEffect(load, [load]);
  useEffect(() => {
    const reloadIfDue = () => {
      if (document.visibilityState !== 'visible') return;
      if (Date.now() - askedAt.current < RETURN_RELOAD_MS) return;
      // Any open dialog, the page's (a signature) or a section's (a dismissal), by what it shows.
      if (document.querySelector('[role="dialog"]')) return;
      ask(true);
    };
    document.addEventListener('visibilitychange', reloadIfDue);
    window.addEventListener('focus', reloadIfDue);
    return () => {
      document.removeEventListener('visibilitychange', reloadIfDue);
      window.removeEventListener('focus', reloadIfDue);
    };
  }, [ask]);
  return { report, error, reload: load };
}

/** The inspection's video record, for the shared player and path player. */
function useVideo(id: string | null): Video | null {
  const [video, setVideo] = useState<Video | null>(null);
  useEffect(() => {
    if (!id) return;
    let current = true;
    getVideo(id).then(
      (answer) => {
        if (current) setVideo(answer);
      },
      (error: unknown) => console.error('Failed to load the inspection video', error),
    );
    return () => {
      current = false;
    };
  }, [id]);
  return video;
}

/** /inspection-report/{inspectionId}: the inspection as a signed GMP record (docs/reports.md). */
export default function InspectionReportPage() {
  const { inspectionId } = useParams<{ inspectionId: string }>();
  // A new page per record ('Next pending inspection'): no clock, dialog or status of the last one
  // carries over, and the heading takes the focus as on any other page change.
  return <ReportView key={inspectionId} inspectionId={inspectionId} />;
}

function ReportView({ inspectionId }: { inspectionId: string }) {
  const heading = usePageHeading(s.title);
  const pageRef = useRef<HTMLElement>(null);
  useToastRoom(pageRef);
  const { report, error, reload } = useReport(inspectionId);
  const video = useVideo(report?.video?.id ?? null);
  // The path player counts these with the path's own scan, as the checklist does.
  const qrScannedTags = useMemo(
    () => report?.checklist.tags.filter((tag) => tag.source === 'qr'),
    [report],
  );
  const [clock] = useState(createPlaybackClock);
  const [signing, setSigning] = useState<ReviewDecision | null>(null);
  const { roles: sessionRoles, ownPassword, info } = useSnapshot(session);
  const userId = info?.id;
  const roles = roleList(sessionRoles);
  const readsTrail = hasAnyRole(roles, trailReaders);
  // After a signature, or a 409 (signed by someone else meanwhile), Approve and Reject go with the
  // pending state: the reloaded record's signature takes the focus, and so is announced.
  const signatureBlock = useFocusWhen(Boolean(report?.signature));
  const signedMeanwhile = useSignedMeanwhile(report, signatureBlock.target, userId);
  // The record as it is now under the dialog, which signs the one shown until then: a change made
  // since the page loaded shows at once, and the dialog says so (SigningDialog's `report`).
  const openSigning = (decision: ReviewDecision) => {
    setSigning(decision);
    reload();
  };

  return (
    <section ref={pageRef} className="report-page">
      <BreadcrumbBar />
      <header className="report-title">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {s.title}
          </h1>
          {report && (
            <p className="muted">
              {report.lineName} · {report.operatorName} · {inspectionId}
            </p>
          )}
        </div>
        {report && (
          <div className="report-title-actions">
            <MediaLink className="btn btn-secondary" href={reportPdfUrl(report.inspectionId)}>
              {s.downloadPdf}
            </MediaLink>
            <MediaLink className="btn btn-secondary" href={reportCopyUrl(report.inspectionId)}>
              {s.downloadCopy}
            </MediaLink>
            {readsTrail && (
              <Link className="btn btn-secondary" href={recordHistoryPath(report.inspectionId)}>
                Record history
              </Link>
            )}
            {report.canSign && (
              <>
                {/* Refused by the server (409) while blocked: unavailable as on the LC manager's
                    cards, reachable by keyboard with its reason; a rejection can still be signed. */}
                <ActionButton
                  action={{
                    label: s.approve,
                    variant: 'success',
                    onClick: () => openSigning('approve'),
                    unavailable: report.approvalBlocker && s.onlyRejectable(report.approvalBlocker),
                  }}
                  noteId={approvalNoteId}
                />
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => openSigning('reject')}
                >
                  {s.reject}
                </button>
              </>
            )}
            {report.canSign && report.approvalBlocker && (
              <p className="muted action-note" id={approvalNoteId}>
                {s.onlyRejectable(report.approvalBlocker)}
              </p>
            )}
            {!report.canSign && report.status === 'pending' && report.cannotSignReason && (
              <p className="muted">{report.cannotSignReason}</p>
            )}
            {/* One whose password a manager chose signs nothing (the own-password notice says
                why): looking for a report it may sign would fetch every pending one. */}
            {hasAnyRole(roles, signers) && ownPassword && <NextPendingButton report={report} />}
            <p className="muted" role="status">
              {signedMeanwhile}
            </p>
          </div>
        )}
      </header>
      {error && (
        <p className="report-warning" role="alert">
          {error}
        </p>
      )}
      {!report && !error && (
        <p className="muted" role="status">
          {s.loading}
        </p>
      )}
      {report && (
        <>
          <div className="report-columns">
            <RecordHeader report={report} />
            <SignatureBlock report={report} ref={signatureBlock.target} />
          </div>
          <FlagsPanel report={report} clock={clock} onChanged={reload} />
          <section className="report-panel" aria-labelledby="report-review">
            <div className="report-panel-head">
              <h2 id="report-review">{s.review}</h2>
              {/* The player, the path and both detection lists hold many stops on the way. */}
              <a
                href={`#${DISPOSITIONS_HEADING}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(DISPOSITIONS_HEADING)?.focus();
                }}
              >
                {s.skipToDispositions}
              </a>
            </div>
            {!report.video && <p>{s.noVideo}</p>}
            {report.video && !report.video.sha256 && (
              <p>
                {report.pathMissingReason
                  ? s.videoWillNotArrive(report.pathMissingReason)
                  : s.videoNotArrived}
              </p>
            )}
            {video && report.video?.sha256 && (
              <div className="report-workspace">
                <VideoWorkspace
                  key={report.video?.id}
                  video={video}
                  clock={clock}
                  qrScannedTags={qrScannedTags}
                  pathMissingReason={report.pathMissingReason}
                  detectionNote={emptyDetectionsNote(report)}
                  recordedChecklist
                />
              </div>
            )}
          </section>
          <ChecklistSection report={report} />
          <DispositionsSection report={report} clock={clock} onChanged={reload} />
        </>
      )}
      {signing && report && (
        <SigningDialog
          inspectionId={report.inspectionId}
          report={report}
          decision={signing}
          onClose={() => setSigning(null)}
          onChanged={() => {
            signatureBlock.arm();
            reload();
          }}
          returnFocusTo={signatureBlock.target}
        />
      )}
    </section>
  );
}
