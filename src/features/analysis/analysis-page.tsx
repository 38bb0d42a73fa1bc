// /analysis: the analysis queue (docs/analysis.md). Recent inspection videos the user may see, with
// the latest job's state, step and progress (polled while any is open), failure reasons and time
// taken; each row opens the video page and the inspection report; admins can re-run a video.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { CellLabel } from '../../components/stacked-table.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { inspectionReportPath, videoPath } from '../../config/paths.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { hasAnyRole } from '../../lib/roles.ts';
import { confirmThenRun } from '../../lib/run-action.ts';
import { session } from '../../stores/session.ts';
import type { AnalysisRow } from '../../types/api.ts';
import { getAnalysisQueue } from './api/get-analysis-queue.ts';
import { rerunAnalysis } from './api/rerun-analysis.ts';
import { analysisStrings as s, stepLabels } from './strings.ts';
import './analysis.css';
import { localTime } from '../../lib/record-time.ts';

/** Poll quickly while a job is queued or running, slowly otherwise (new uploads appear). */
const BUSY_POLL_MS = 2000;
const IDLE_POLL_MS = 15000;

type Job = NonNullable<AnalysisRow['job']>;

const isOpen = (job: Job | null) => job?.state === 'queued' || job?.state === 'running';

/** A job's duration: one decimal below 10 s (a 0.5 s job is not '0 s'), whole seconds above. */
function seconds(from: string, to: string | null): string {
  const ms = (to ? Date.parse(to) : Date.now()) - Date.parse(from);
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 9950) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
}

function timeTaken(job: Job | null): string {
  if (!job?.startedAt) return '—';
  const text = seconds(job.startedAt, job.state === 'running' ? null : job.finishedAt);
  return job.state === 'running' ? `${text} so far` : text || '—';
}

/** Results the video has now (a run's or ingested), whatever its latest job says. */
const hasResults = (row: AnalysisRow) => row.videoStatus === 'completed';

/** A recording whose file has not arrived: nothing to analyse yet (its job comes with the file). */
const awaitsFile = (row: AnalysisRow) => !row.job && row.videoStatus === 'pending';

/**
 * A video without a job here: results that came some other way (ingested, the demo), a
 * recording whose file has not arrived (its job is queued when it does), or nothing at all.
 */
function noJobState(row: AnalysisRow): { tag: string | null; label: string } {
  if (hasResults(row)) return { tag: 'completed', label: s.resultsFrom(row.analysisVersion) };
  if (awaitsFile(row)) return { tag: null, label: s.awaitingFile };
  return { tag: null, label: s.notAnalysed };
}

/** The job's state and, while it runs, its step and progress; once it ended, when. */
function JobState({ row }: { row: AnalysisRow }) {
  const job = row.job;
  if (!job) {
    const state = noJobState(row);
    return (
      <div className="analysis-state">
        {state.tag && <StatusTag status={state.tag} />}
        <span className={state.tag ? 'muted' : undefined}>{state.label}</span>
      </div>
    );
  }
  const percent = Math.round(job.progress * 100);
  const finished = (job.state === 'completed' || job.state === 'failed') && job.finishedAt;
  return (
    <div className="analysis-state">
      <StatusTag status={job.state} />
      {finished && <span className="muted">{s.finishedAt(localTime(finished) ?? s.unknown)}</span>}
      {job.state === 'running' && (
        <>
          <span>{(job.step && stepLabels[job.step]) ?? job.step}</span>
          <progress
            max={100}
            value={percent}
            aria-label={`Progress of ${row.filename}`}
            aria-valuetext={`${percent}%`}
          />
        </>
      )}
      {job.attempts > 1 && (
        <span className="muted">{s.attempt(job.attempts, job.maxAttempts)}</span>
      )}
    </div>
  );
}

/** Without a job and without results: why, and what to do. */
function noJobNote(row: AnalysisRow, isAdmin: boolean): string {
  if (awaitsFile(row)) return s.awaitingFileNote;
  const why = row.statusReason ?? s.noJobNote;
  if (row.signed) return why;
  return `${why} ${isAdmin ? s.adminMayRun : s.askAdmin}`;
}

/** Why it failed, or what the run made (path, keyframes, detections). */
function Details({ row, isAdmin }: { row: AnalysisRow; isAdmin: boolean }) {
  const job = row.job;
  if (!job && !hasResults(row)) return <span>{noJobNote(row, isAdmin)}</span>;
  const reason = job?.state === 'failed' || job?.state === 'queued' ? job.error : null;
  if (reason) return <span className="analysis-error">{reason}</span>;
  const summary = job?.state === 'completed' ? job.summary : null;
  if (!summary) return row.statusReason ? <span>{row.statusReason}</span> : <>—</>;
  const path =
    summary.path === 'none'
      ? 'no path'
      : `path ${summary.path === 'motion' ? 'from motion and QR scans' : 'interpolated between QR scans'}`;
  const detections =
    summary.predictions === null
      ? 'no detector'
      : `${summary.predictions} keyframes with detections`;
  return (
    <span>
      {summary.keyframeImages} keyframe images, {path}, {detections}
      {summary.pathNote && <span className="muted"> ({summary.pathNote})</span>}
    </span>
  );
}

export default function AnalysisPage() {
  const heading = usePageHeading(s.title);
  const { roles } = useSnapshot(session);
  const isAdmin = hasAnyRole(roles, ['admin']);
  const queue = useLoad(getAnalysisQueue, s.loadFailed);
  const rows = queue.data;
  const running = rows?.filter((row) => row.job?.state === 'running').length ?? 0;
  const queued = rows?.filter((row) => row.job?.state === 'queued').length ?? 0;
  const busy = rows?.some((row) => isOpen(row.job)) ?? false;

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new answer schedules the next poll.
  useEffect(() => {
    const timer = setTimeout(queue.reload, busy ? BUSY_POLL_MS : IDLE_POLL_MS);
    return () => clearTimeout(timer);
  }, [rows, busy, queue.reload]);

  const rerun = async (row: AnalysisRow, name: string) => {
    // The server's refusal (e.g. a signed inspection's evidence) follows the failure text.
    const queued = await confirmThenRun(
      s.confirmRerun(name),
      () => rerunAnalysis(row.videoId),
      s.rerunDone,
      s.rerunFailed,
    );
    if (queued) queue.reload();
  };

  return (
    <section className="page analysis-page">
      <BreadcrumbBar />
      <header>
        <h1 ref={heading} tabIndex={-1}>
          {s.title}
        </h1>
        <p className="muted">{s.subtitle}</p>
      </header>
      <p role="status" className="analysis-summary">
        {rows ? s.summary(running, queued) : s.loading}
      </p>
      {rows && rows.length === 0 && <p className="muted">{s.empty}</p>}
      {rows && rows.length > 0 && (
        <div className="analysis-table-wrap">
          <table className="analysis-table stacked-table">
            <caption className="visually-hidden">{s.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{s.recorded}</th>
                <th scope="col">{s.line}</th>
                <th scope="col">{s.operator}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.time}</th>
                <th scope="col">{s.details}</th>
                <th scope="col">{s.actions}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const recorded = localTime(row.recordedAt) ?? s.unknown;
                const name = `${row.lineName ?? s.unknownLine} ${recorded}`;
                return (
                  <tr key={row.videoId}>
                    <th scope="row">{recorded}</th>
                    <td>
                      <CellLabel>{s.line}</CellLabel>
                      <span>{row.lineName ?? s.unknownLine}</span>
                    </td>
                    <td>
                      <CellLabel>{s.operator}</CellLabel>
                      <span>{row.operatorName ?? s.unknown}</span>
                    </td>
                    <td>
                      <CellLabel>{s.status}</CellLabel>
                      <JobState row={row} />
                    </td>
                    <td>
                      <CellLabel>{s.time}</CellLabel>
                      <span>{timeTaken(row.job)}</span>
                    </td>
                    <td>
                      <CellLabel>{s.details}</CellLabel>
                      <span>
                        <Details row={row} isAdmin={isAdmin} />
                      </span>
                    </td>
                    <td className="analysis-actions-cell">
                      <div className="analysis-actions">
                        <Link
                          href={videoPath(row.videoId)}
                          className="btn btn-secondary"
                          aria-label={`${s.openVideo}: ${name}`}
                        >
                          {s.openVideo}
                        </Link>
                        {row.inspectionId && (
                          <Link
                            href={inspectionReportPath(row.inspectionId)}
                            className="btn btn-secondary"
                            aria-label={`${s.openReport}: ${name}`}
                          >
                            {s.openReport}
                          </Link>
                        )}
                        {isAdmin && row.signed && (
                          <span className="muted">
                            {hasResults(row) ? s.signedEvidence : s.signedNoResults}
                          </span>
                        )}
                        {isAdmin && !row.signed && (
                          <button
                            type="button"
                            className="btn btn-secondary"
                            disabled={isOpen(row.job) || awaitsFile(row)}
                            onClick={() => rerun(row, name)}
                            aria-label={`${s.rerun}: ${name}`}
                          >
                            {s.rerun}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
