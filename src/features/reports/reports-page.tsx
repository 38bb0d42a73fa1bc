import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  checkSignatures,
  getReportFilters,
  getReports,
  getSignatureCheck,
  isInspectionId,
  reportsCsvUrl,
} from '../../api/get-reports.ts';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { Field } from '../../components/field.tsx';
import { MediaLink } from '../../components/media-link.tsx';
import { Pager } from '../../components/pager.tsx';
import { ReportTable } from '../../components/report-table.tsx';
import { RunButton } from '../../components/run-button.tsx';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLatest } from '../../hooks/use-latest.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { queryString } from '../../lib/query-string.ts';
import { recordTime } from '../../lib/record-time.ts';
import { hasAnyRole, roleList } from '../../lib/roles.ts';
import { failureText } from '../../lib/run-action.ts';
import {
  type DateFilter,
  datesOf,
  datesQuery,
  noDates,
  pickedRange,
  rangeDates,
  rangeNote,
  useSearchState,
} from '../../lib/search-state.ts';
import { session } from '../../stores/session.ts';
import { toastError } from '../../stores/toasts.ts';
import type {
  InspectionStatus,
  ReportPage,
  ReportsQuery,
  SignatureCheck,
} from '../../types/api.ts';
import './reports.css';

const PAGE_SIZE = 25;
const ALL = '';

interface Filters {
  /** Both ends, or one: a link's range open at the other end is applied as such. */
  dates: DateFilter;
  lineClearanceId: string;
  operatorId: string;
  status: InspectionStatus | typeof ALL;
  flagged: 'true' | 'false' | typeof ALL;
  changed: 'true' | typeof ALL;
  sort: '-startTime' | 'startTime';
}

const noFilters: Filters = {
  dates: noDates,
  lineClearanceId: ALL,
  operatorId: ALL,
  status: ALL,
  flagged: ALL,
  changed: ALL,
  sort: '-startTime',
};

const STATUSES: readonly string[] = ['pending', 'approved', 'rejected'];
const isCursor = (value: string) => /^[0-9]{1,15}_[0-9a-f]{24}$/.test(value);

interface Shown {
  filters: Filters;
  cursors: string[];
}

/**
 * The filters, sort and page as the URL's query string holds them (lib/search-state.ts); a value
 * the server would refuse is dropped, so an edited link still lists. `after` repeats: the cursors
 * of the pages before the one shown, so Previous works after a reload too.
 */
function fromSearch(params: URLSearchParams): Shown {
  const get = (key: string) => params.get(key);
  const id = (key: string) => {
    const value = get(key);
    return value && isInspectionId(value) ? value : ALL;
  };
  const status = get('status') ?? ALL;
  const flagged = get('flagged');
  return {
    filters: {
      dates: datesOf(params),
      lineClearanceId: id('lineClearanceId'),
      operatorId: id('operatorId'),
      status: STATUSES.includes(status) ? (status as InspectionStatus) : ALL,
      flagged: flagged === 'true' || flagged === 'false' ? flagged : ALL,
      changed: get('changedAfterSigning') === 'true' ? 'true' : ALL,
      sort: get('sort') === 'startTime' ? 'startTime' : '-startTime',
    },
    cursors: params.getAll('after').filter(isCursor),
  };
}

function toSearch({ filters, cursors }: Shown): string {
  const { limit: _limit, ...query } = toQuery(filters);
  // Newest first is the default: a link without a sort means it.
  const sort = query.sort === noFilters.sort ? undefined : query.sort;
  const params = new URLSearchParams(queryString({ ...query, sort }));
  for (const cursor of cursors) params.append('after', cursor);
  return params.toString();
}

function toQuery(filters: Filters): ReportsQuery {
  return {
    ...datesQuery(filters.dates),
    lineClearanceId: filters.lineClearanceId || undefined,
    operatorId: filters.operatorId || undefined,
    status: filters.status || undefined,
    flagged: filters.flagged ? filters.flagged === 'true' : undefined,
    changedAfterSigning: filters.changed ? true : undefined,
    sort: filters.sort,
    limit: PAGE_SIZE,
  };
}

/** 'n reports in all', or 'More than n reports in all' where the server stopped counting. */
function totalText({ count, more }: ReportPage['total']): string {
  const n = count.toLocaleString('en');
  if (more) return `More than ${n} reports in all`;
  return `${n} ${count === 1 ? 'report' : 'reports'} in all`;
}

/**
 * What the list shows, in one line said whenever it changes: the total across every page of the
 * filters, after what this page holds when there are several ('Page 2: 20 reports · 45 reports in
 * all'), alone when one page holds them all (QA: 'Page 1: 3 reports' and '3 reports in all').
 */
function listText(page: ReportPage | null, number: number): string {
  if (!page) return '';
  const count = page.rows.length;
  if (count === 0) return 'No reports match these filters.';
  if (number === 1 && !page.next) return totalText(page.total);
  return `Page ${number}: ${count} ${count === 1 ? 'report' : 'reports'} · ${totalText(page.total)}`;
}

/** Who may check every signed record (those who read every record; the server's rule). */
const CHECKERS = ['audit', 'factory_manager', 'admin'] as const;

/** How often the page asks how far a signature check has come. */
const CHECK_POLL_MS = 2000;

/** What a signature check has come to, in a sentence ('' before the first run). */
function checkText(run: SignatureCheck): string {
  const records = (n: number) => `${n} signed ${n === 1 ? 'record' : 'records'}`;
  switch (run.state) {
    case 'none':
      return '';
    case 'running':
      // The total is known once the run has listed the signed records.
      return `Checking signed records${run.total > 0 ? `: ${run.checked} of ${run.total}` : ''} (started ${recordTime(run.startedAt)} by ${run.startedBy.name})…`;
    case 'finished':
      return `Checked ${records(run.checked)}: ${
        run.changed === 0
          ? 'each matches its signature.'
          : `${run.changed} changed after signing (choose Signature: Changed after signing).`
      } Finished ${recordTime(run.finishedAt)}.`;
    case 'failed':
      return `The check of the signed records stopped after ${run.checked} of ${run.total}: ${run.error}`;
  }
}

/**
 * 'Check signed records': starts building every signed record again on the server, in the
 * background (docs/reports.md), shows how far it has come, then how many changed after signing,
 * and has the list reloaded so their rows say so. Opened while a run goes, it follows that run.
 */
function SignatureCheckButton({ onChecked }: { onChecked: () => void }) {
  const [run, setRun] = useState<SignatureCheck | null>(null);
  const checked = useLatest(onChecked);
  // The one loop that follows a run going: a press while it goes waits for the same loop.
  const following = useRef<Promise<void> | null>(null);
  const mounted = useRef(false);

  const follow = (first: SignatureCheck): Promise<void> => {
    setRun(first);
    if (first.state !== 'running') return Promise.resolve();
    following.current ??= (async () => {
      let state: SignatureCheck = first;
      try {
        while (state.state === 'running') {
          await new Promise((resolve) => setTimeout(resolve, CHECK_POLL_MS));
          if (!mounted.current) return;
          state = await getSignatureCheck();
          if (!mounted.current) return;
          setRun(state);
        }
        if (state.state === 'finished') checked.current();
      } finally {
        following.current = null;
      }
    })();
    return following.current;
  };

  const failed = (error: unknown) => {
    const text = failureText('Failed to check the signed records', error);
    if (text) toastError(text);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once on opening; `follow` reads refs.
  useEffect(() => {
    mounted.current = true;
    getSignatureCheck().then(follow, failed);
    return () => {
      mounted.current = false;
    };
  }, []);

  const check = async () => {
    try {
      await follow(await checkSignatures());
    } catch (error) {
      failed(error);
    }
  };
  const warn = run?.state === 'failed' || (run?.state === 'finished' && run.changed > 0);
  return (
    <>
      <RunButton
        label="Check signed records"
        busyLabel="Checking…"
        className="btn btn-secondary"
        onRun={check}
      />
      <p role="status" className={warn ? 'report-warning' : 'muted'}>
        {run && checkText(run)}
      </p>
    </>
  );
}

/** /reports: every inspection report the caller may see, filtered and paged on the server. */
export default function ReportsPage() {
  const heading = usePageHeading('Reports');
  const { roles } = useSnapshot(session);
  // Keyset pages: `cursors` are those of the pages before this one, to go back.
  const [{ filters, cursors }, showState, shown] = useSearchState(fromSearch, toSearch);
  const show = (next: Filters, nextCursors: string[]) =>
    showState({ filters: next, cursors: nextCursors });
  const [page, setPage] = useState<ReportPage | null>(null);
  // The number of the page shown, set with its rows: the status names them together.
  const [shownNumber, setShownNumber] = useState(1);
  const [failed, setFailed] = useState(false);
  // Bumped after a signature check, so the list shows what the check found.
  const [checks, setChecks] = useState(0);
  const choices = useLoad(getReportFilters, 'Failed to load the filters');
  const query = toQuery(filters);
  const after = cursors[cursors.length - 1];

  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is rebuilt from `shown` each render.
  useEffect(() => {
    let current = true;
    const number = cursors.length + 1;
    getReports({ ...query, after }).then(
      (answer) => {
        if (!current) return;
        setPage(answer);
        setShownNumber(number);
        setFailed(false);
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [shown, checks]);

  const change = (patch: Partial<Filters>) => show({ ...filters, ...patch }, []);
  const openText = rangeNote(filters.dates);
  return (
    <section className="reports-page">
      <BreadcrumbBar />
      <header>
        <h1 ref={heading} tabIndex={-1}>
          Reports
        </h1>
        <p className="muted">Inspection reports with their flags and signatures.</p>
      </header>
      <search className="reports-filters" aria-label="Filter reports">
        <DateRangePicker
          value={pickedRange(filters.dates)}
          onChange={(range) => change({ dates: rangeDates(range) })}
          placeholder="Filter by date range"
          label="Date range"
        />
        <Field label="Line">
          <select
            value={filters.lineClearanceId}
            onChange={(event) => change({ lineClearanceId: event.target.value })}
          >
            <option value={ALL}>All lines</option>
            {choices.data?.lines.map((line) => (
              <option key={line.id} value={line.id}>
                {line.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Operator">
          <select
            value={filters.operatorId}
            onChange={(event) => change({ operatorId: event.target.value })}
          >
            <option value={ALL}>All operators</option>
            {choices.data?.operators.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status">
          <select
            value={filters.status}
            onChange={(event) => change({ status: event.target.value as Filters['status'] })}
          >
            <option value={ALL}>Any status</option>
            <option value="pending">Pending</option>
            <option value="approved">Approved</option>
            <option value="rejected">Rejected</option>
          </select>
        </Field>
        <Field label="Flags">
          <select
            value={filters.flagged}
            onChange={(event) => change({ flagged: event.target.value as Filters['flagged'] })}
          >
            <option value={ALL}>Flagged or not</option>
            <option value="true">Flagged</option>
            <option value="false">Not flagged</option>
          </select>
        </Field>
        <Field label="Signature">
          <select
            value={filters.changed}
            onChange={(event) => change({ changed: event.target.value as Filters['changed'] })}
          >
            <option value={ALL}>Any record</option>
            <option value="true">Changed after signing</option>
          </select>
        </Field>
        <Field label="Sort">
          <select
            value={filters.sort}
            onChange={(event) => change({ sort: event.target.value as Filters['sort'] })}
          >
            <option value="-startTime">Newest first</option>
            <option value="startTime">Oldest first</option>
          </select>
        </Field>
        <div className="reports-filter-actions">
          <button type="button" className="btn btn-secondary" onClick={() => change(noFilters)}>
            Clear Filters
          </button>
          <MediaLink className="btn btn-secondary" href={reportsCsvUrl(query)}>
            Export CSV
          </MediaLink>
          {hasAnyRole(roleList(roles), CHECKERS) && (
            <SignatureCheckButton onChecked={() => setChecks((n) => n + 1)} />
          )}
        </div>
      </search>
      {openText && <p className="muted">{openText}</p>}
      {failed && (
        <p className="report-warning" role="alert">
          Failed to load reports
        </p>
      )}
      {/* The backlog across every page of these filters, beside what this page holds. */}
      <p className={page?.rows.length ? 'muted' : undefined} role="status">
        {listText(page, shownNumber)}
      </p>
      {page && page.rows.length > 0 && (
        <ReportTable rows={page.rows} roles={roleList(roles)} caption="Inspection reports" />
      )}
      <Pager
        className="reports-pager"
        label="Pages"
        steps={[
          {
            label: 'Previous page',
            available: cursors.length > 0,
            onClick: () => show(filters, cursors.slice(0, -1)),
          },
          {
            label: 'Next page',
            available: Boolean(page?.next),
            onClick: () => page?.next && show(filters, [...cursors, page.next]),
          },
        ]}
      />
    </section>
  );
}
