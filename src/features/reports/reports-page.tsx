import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  checkSignatures,
  getReportFilters,
  getReports,
  reportsCsvUrl,
} from '../../api/get-reports.ts';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { Field } from '../../components/field.tsx';
import { MediaLink } from '../../components/media-link.tsx';
import { Pager, PageStatus } from '../../components/pager.tsx';
import { ReportTable } from '../../components/report-table.tsx';
import { RunButton } from '../../components/run-button.tsx';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import type { DateRange } from '../../lib/date-range.ts';
import { hasAnyRole, roleList } from '../../lib/roles.ts';
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
  range: DateRange | null;
  lineClearanceId: string;
  operatorId: string;
  status: InspectionStatus | typeof ALL;
  flagged: 'true' | 'false' | typeof ALL;
  changed: 'true' | typeof ALL;
  sort: '-startTime' | 'startTime';
}

const noFilters: Filters = {
  range: null,
  lineClearanceId: ALL,
  operatorId: ALL,
  status: ALL,
  flagged: ALL,
  changed: ALL,
  sort: '-startTime',
};

function toQuery(filters: Filters): ReportsQuery {
  return {
    from: filters.range?.start.toISOString(),
    to: filters.range?.end.toISOString(),
    lineClearanceId: filters.lineClearanceId || undefined,
    operatorId: filters.operatorId || undefined,
    status: filters.status || undefined,
    flagged: filters.flagged ? filters.flagged === 'true' : undefined,
    changedAfterSigning: filters.changed ? true : undefined,
    sort: filters.sort,
    limit: PAGE_SIZE,
  };
}

/** Who may check every signed record (those who read every record; the server's rule). */
const CHECKERS = ['audit', 'factory_manager', 'admin'] as const;

/**
 * 'Check signed records': builds every signed record again on the server, says how many changed
 * after signing, and has the list reloaded so their rows say so (docs/reports.md).
 */
function SignatureCheckButton({ onChecked }: { onChecked: () => void }) {
  const [result, setResult] = useState<SignatureCheck | null>(null);
  const check = async () => {
    try {
      setResult(await checkSignatures());
      onChecked();
    } catch (error) {
      toastError(
        `Failed to check the signed records: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return (
    <>
      <RunButton
        label="Check signed records"
        busyLabel="Checking…"
        className="btn btn-secondary"
        onRun={check}
      />
      <p role="status" className={result?.changed ? 'report-warning' : 'muted'}>
        {result &&
          `Checked ${result.checked} signed ${result.checked === 1 ? 'record' : 'records'}: ${
            result.changed === 0
              ? 'each matches its signature.'
              : `${result.changed} changed after signing (choose Signature: Changed after signing).`
          }`}
      </p>
    </>
  );
}

/** /reports: every inspection report the caller may see, filtered and paged on the server. */
export default function ReportsPage() {
  const heading = usePageHeading('Reports');
  const { roles } = useSnapshot(session);
  const [filters, setFilters] = useState<Filters>(noFilters);
  // Keyset pages: the cursors of the pages before this one, to go back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<ReportPage | null>(null);
  // The number of the page shown, set with its rows: the status names them together.
  const [shownNumber, setShownNumber] = useState(1);
  const [failed, setFailed] = useState(false);
  // Bumped after a signature check, so the list shows what the check found.
  const [checks, setChecks] = useState(0);
  const choices = useLoad(getReportFilters, 'Failed to load the filters');
  const query = toQuery(filters);
  const after = cursors[cursors.length - 1];

  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is rebuilt from `filters` each render.
  useEffect(() => {
    let current = true;
    const number = cursors.length;
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
  }, [filters, after, checks]);

  const change = (patch: Partial<Filters>) => {
    setFilters((previous) => ({ ...previous, ...patch }));
    setCursors([undefined]);
  };
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
          value={filters.range}
          onChange={(range) => change({ range })}
          placeholder="Filter by date range"
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
            <option value="pending">pending</option>
            <option value="approved">approved</option>
            <option value="rejected">rejected</option>
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
      {failed && (
        <p className="report-warning" role="alert">
          Failed to load reports
        </p>
      )}
      <PageStatus
        page={shownNumber}
        count={page?.rows.length ?? null}
        noun={['report', 'reports']}
        none="No reports match these filters."
      />
      {page && page.rows.length > 0 && (
        <ReportTable rows={page.rows} roles={roleList(roles)} caption="Inspection reports" />
      )}
      <Pager
        className="reports-pager"
        label="Pages"
        steps={[
          {
            label: 'Previous page',
            available: cursors.length > 1,
            onClick: () => setCursors((previous) => previous.slice(0, -1)),
          },
          {
            label: 'Next page',
            available: Boolean(page?.next),
            onClick: () => setCursors((previous) => [...previous, page?.next ?? undefined]),
          },
        ]}
      />
    </section>
  );
}
