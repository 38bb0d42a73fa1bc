import { Fragment, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { type Change, changes, NO_VALUE } from '../../../server/schemas/audit-changes.ts';
import { reportCopyUrl, reportPdfUrl } from '../../api/get-reports.ts';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { Field, TextField } from '../../components/field.tsx';
import { MediaLink } from '../../components/media-link.tsx';
import { Pager, PageStatus } from '../../components/pager.tsx';
import { RunButton } from '../../components/run-button.tsx';
import { Select } from '../../components/select.tsx';
import { CellLabel } from '../../components/stacked-table.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import { UserText } from '../../components/user-text.tsx';
import { inspectionReportPath, routeRoles } from '../../config/paths.ts';
import { ApiError } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { queryString } from '../../lib/query-string.ts';
import { localTime, utcTime } from '../../lib/record-time.ts';
import { hasAnyRole, roleList } from '../../lib/roles.ts';
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
import type { AuditEntry, AuditFacets, AuditQuery, TrailVerification } from '../../types/api.ts';
import { auditCsvUrl, getAuditFacets, getAuditTrail, verifyTrail } from './api/audit-trail.ts';

const PAGE_SIZE = 50;

interface TrailFilters {
  actor: string;
  action: string;
  entity: string;
  entityId: string;
  /** An inspection's id: its record's whole history (its own, its video's and uploads' entries). */
  record: string;
  /** Both ends, or one: a link's range open at the other end is applied as such. */
  dates: DateFilter;
}

const noFilters: TrailFilters = {
  actor: '',
  action: '',
  entity: '',
  entityId: '',
  record: '',
  dates: noDates,
};

interface Shown {
  filters: TrailFilters;
  /** The `before` of each page after the first up to the one shown, to go back to newer ones. */
  before: number[];
}

const TEXT_KEYS = ['actor', 'action', 'entity', 'entityId', 'record'] as const;

const unfiltered = (filters: TrailFilters) =>
  TEXT_KEYS.every((key) => filters[key] === '') && !filters.dates.from && !filters.dates.to;

/**
 * Beside an entry of the whole trail whose older neighbour is not the number before it: the
 * numbers between were drawn for changes that rolled back, or skipped after a crash; no entry
 * had them (docs/audit-trail.md). Said, so an auditor reading 2 then 35 is not left to guess.
 */
function UnusedNumbers({ entry, older }: { entry: number; older: number | undefined }) {
  if (older === undefined || entry - older <= 1) return null;
  const range = entry - older === 2 ? `${older + 1}` : `${older + 1}–${entry - 1}`;
  return (
    <tr className="audit-gap">
      <td colSpan={5} className="muted">
        No entry {range}: numbers of changes that rolled back or were skipped after a restart;
        Verify trail checks that none is missing
      </td>
    </tr>
  );
}

const isEntryId = (value: string) =>
  /^[1-9][0-9]{0,15}$/.test(value) && Number(value) <= Number.MAX_SAFE_INTEGER;

/**
 * The filters and page as the URL's query string holds them (lib/search-state.ts), so Back from a
 * report, a reload and a shared link show the same entries; `/audit?record={id}` (the report's
 * and /reports' links) opens on a record's history. `before` repeats, as /reports' `after`.
 */
function fromSearch(params: URLSearchParams): Shown {
  const filters = { ...noFilters, dates: datesOf(params) };
  for (const key of TEXT_KEYS) filters[key] = params.get(key) ?? '';
  return { filters, before: params.getAll('before').filter(isEntryId).map(Number) };
}

function toSearch({ filters, before }: Shown): string {
  const { dates, ...text } = filters;
  const params = new URLSearchParams(queryString({ ...text, ...datesQuery(dates) }));
  for (const id of before) params.append('before', String(id));
  return params.toString();
}

export { changes };

/** One change: its line, and where a value was cut a disclosure with the whole values. */
function ChangeItem({ item }: { item: Change }) {
  if (!item.full) return <li>{item.line}</li>;
  return (
    <li>
      <details className="audit-change">
        <summary>
          {item.line} <span className="muted audit-whole-hint">(whole value)</span>
        </summary>
        <dl className="audit-whole">
          {item.full.old !== undefined && (
            <>
              <dt>Old</dt>
              <dd>
                <pre>{item.full.old}</pre>
              </dd>
            </>
          )}
          <dt>New</dt>
          <dd>
            <pre>{item.full.new}</pre>
          </dd>
        </dl>
      </details>
    </li>
  );
}

/** The audit trail viewer: filters, entries with old → new, paging, CSV and the chain check. */
export function AuditTrailSection() {
  const [{ filters, before }, show, shown] = useSearchState(fromSearch, toSearch);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  // Why no entries show: a record that is not there, or a call that failed (then Retry).
  const [failure, setFailure] = useState<{ text: string; retry: boolean } | null>(null);
  // Bumped by Retry, to load the same page again; `retrying` until that load answers.
  const [attempt, setAttempt] = useState(0);
  const [retrying, setRetrying] = useState(false);
  // Auditors read the trail and the PDF, but the route table keeps them off the report page.
  const opensReport = hasAnyRole(roleList(useSnapshot(session).roles), routeRoles.inspectionReport);
  // The number of the page shown, set with its entries: the status names them together.
  const [shownNumber, setShownNumber] = useState(1);
  const [verification, setVerification] = useState<TrailVerification | null>(null);
  const [verifyFailure, setVerifyFailure] = useState<string | null>(null);
  const [facets, setFacets] = useState<AuditFacets>({ actions: [], entities: [] });
  const query: AuditQuery = {
    actor: filters.actor.trim() || undefined,
    action: filters.action.trim() || undefined,
    entity: filters.entity.trim() || undefined,
    entityId: filters.entityId.trim() || undefined,
    record: filters.record.trim() || undefined,
    ...datesQuery(filters.dates),
    limit: PAGE_SIZE,
    before: before[before.length - 1],
  };

  // The filters' choices; without them (a failed call) the lists hold only "All".
  useEffect(() => {
    getAuditFacets().then(setFacets, () => undefined);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is rebuilt from `shown` each render.
  useEffect(() => {
    let current = true;
    const number = before.length + 1;
    getAuditTrail(query).then(
      (answer) => {
        if (!current) return;
        setRetrying(false);
        setEntries(answer);
        setShownNumber(number);
        setFailure(null);
      },
      (error: unknown) => {
        if (!current) return;
        setRetrying(false);
        // Never an empty page: it would say that no entry matches, which nobody checked.
        setEntries(null);
        setFailure(
          error instanceof ApiError && error.status === 404 && query.record
            ? { text: `No inspection has the id ${query.record}.`, retry: false }
            : { text: `Failed to load the audit trail: ${errorText(error)}`, retry: true },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [shown, attempt]);

  // A new filter goes back to the newest entries.
  const change = (patch: Partial<TrailFilters>) =>
    show({ filters: { ...filters, ...patch }, before: [] });
  const verify = async () => {
    try {
      setVerification(await verifyTrail());
      setVerifyFailure(null);
    } catch (error) {
      // An earlier result is not shown beside it: it is not what this check found.
      setVerification(null);
      setVerifyFailure(`Could not verify the trail: ${errorText(error)}`);
    }
  };
  const openText = rangeNote(filters.dates);
  const last = entries?.[entries.length - 1];
  const broken = verification?.firstBroken ?? null;
  // The page that starts at an entry: no filters, everything older than the one after it.
  const whole = unfiltered(filters);
  const showEntry = (id: number) => show({ filters: noFilters, before: [id + 1] });

  return (
    <section className="audit-panel" aria-labelledby="audit-trail">
      <div className="audit-panel-head">
        <h2 id="audit-trail">Audit trail</h2>
        <RunButton
          label="Verify trail"
          busyLabel="Verifying…"
          className="btn btn-primary"
          onRun={verify}
        />
      </div>
      {verifyFailure && (
        <p className="report-warning" role="alert">
          {verifyFailure}
        </p>
      )}
      <div role="status">
        {verification?.ok && (
          <p className="audit-verified">
            The trail verifies: {verification.checked} entries, each linked to the one before. Head
            hash <code>{verification.headHash}</code>
          </p>
        )}
        {broken && (
          <p className="report-warning">
            The trail is broken at entry {broken.id}:{' '}
            {broken.problem === 'hash'
              ? 'its content no longer matches its hash (it was edited).'
              : 'it does not link to the entry before it (an entry was removed or inserted).'}{' '}
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => showEntry(broken.id)}
            >
              Show entry {broken.id}
            </button>
          </p>
        )}
        {verification && verification.brokenCount > 1 && (
          <p className="report-warning">
            {verification.brokenCount} of {verification.checked} entries do not verify
            {verification.brokenCount > verification.broken.length
              ? ` (the first ${verification.broken.length} listed)`
              : ''}
            : {verification.broken.map((entry) => `${entry.id} (${entry.problem})`).join(', ')}.
          </p>
        )}
      </div>
      <search className="audit-filters" aria-label="Filter the audit trail">
        <TextField
          label="Actor (email or id)"
          value={filters.actor}
          onChange={(actor) => change({ actor })}
        />
        {(
          [
            ['Action', 'action', facets.actions, 'All actions'],
            ['Object type', 'entity', facets.entities, 'All object types'],
          ] as const
        ).map(([label, key, options, all]) => (
          <Field key={key} label={label}>
            <Select
              value={filters[key]}
              // A link's value the trail does not hold is shown, not hidden behind 'All …' (QA).
              options={
                filters[key] && !options.includes(filters[key])
                  ? [...options, filters[key]]
                  : options
              }
              onChange={(value) => change({ [key]: value })}
              emptyLabel={all}
            />
          </Field>
        ))}
        <TextField
          label="Object id"
          value={filters.entityId}
          onChange={(entityId) => change({ entityId })}
        />
        <TextField
          label="Record (inspection id)"
          value={filters.record}
          onChange={(record) => change({ record })}
        />
        <DateRangePicker
          value={pickedRange(filters.dates)}
          onChange={(range) => change({ dates: rangeDates(range) })}
          placeholder="Filter by date range"
          label="Date range"
        />
        <div className="audit-filter-actions">
          <button type="button" className="btn btn-secondary" onClick={() => change(noFilters)}>
            Clear Filters
          </button>
          <MediaLink className="btn btn-secondary" href={auditCsvUrl(query)}>
            Export CSV
          </MediaLink>
        </div>
      </search>
      {openText && <p className="muted">{openText}</p>}
      {query.record && !failure && (
        <p className="muted">
          The whole history of inspection {query.record}: its own entries, its video's (upload, hash
          verification, analysis) and its uploads', newest first.{' '}
          {opensReport && (
            <>
              <Link href={inspectionReportPath(query.record)}>Open its report</Link> ·{' '}
            </>
          )}
          <MediaLink href={reportPdfUrl(query.record)}>Download its PDF</MediaLink> ·{' '}
          <MediaLink href={reportCopyUrl(query.record)}>its electronic copy (JSON)</MediaLink>
        </p>
      )}
      {failure && (
        <p className={failure.retry ? 'report-warning' : undefined}>
          <span role="alert">{failure.text}</span>
          {failure.retry && (
            <>
              {' '}
              {/* Kept while it runs (aria-disabled, not disabled), so the focus stays on it. */}
              <button
                type="button"
                className="btn btn-secondary"
                aria-disabled={retrying || undefined}
                onClick={() => {
                  if (retrying) return;
                  setRetrying(true);
                  setAttempt((value) => value + 1);
                }}
              >
                {retrying ? 'Retrying…' : 'Retry'}
              </button>
            </>
          )}
        </p>
      )}
      <PageStatus
        page={shownNumber}
        count={failure ? null : (entries?.length ?? null)}
        noun={['entry', 'entries']}
        none="No entries match these filters."
      />
      {entries && entries.length > 0 && (
        <TableScroll label="Audit trail entries">
          <table className="report-table audit-table stacked-table">
            <caption className="visually-hidden">Audit trail entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Old → new</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, i) => (
                <Fragment key={entry.id}>
                  <tr className={entry.id === broken?.id ? 'audit-broken' : undefined}>
                    <th scope="row">
                      {utcTime(entry.at, true) ?? entry.at}
                      {new Date(entry.at).getTimezoneOffset() !== 0 && (
                        <span className="muted audit-local">{localTime(entry.at, true)} local</span>
                      )}
                      <span className="muted audit-id">
                        Entry {entry.id}
                        {entry.id === broken?.id && <strong> · the chain breaks here</strong>}
                      </span>
                    </th>
                    <td>
                      <CellLabel>Who</CellLabel>
                      <div>
                        {entry.actorEmail ?? 'system'}
                        {/* The trail's readers only (docs/audit-trail.md): an address is personal data. */}
                        {entry.ip && <span className="muted audit-ip">IP {entry.ip}</span>}
                      </div>
                    </td>
                    <td>
                      <CellLabel>What</CellLabel>
                      <div>
                        {entry.action} {entry.entity}
                        {entry.entityId && (
                          <span className="muted audit-id"> {entry.entityId}</span>
                        )}
                      </div>
                    </td>
                    <td className="audit-changes-cell">
                      <CellLabel>Old → new</CellLabel>
                      <ul className="audit-changes">
                        {changes(entry.oldValue, entry.newValue).map((item) => (
                          <ChangeItem key={item.line} item={item} />
                        ))}
                      </ul>
                    </td>
                    <td>
                      <CellLabel>Reason</CellLabel>
                      {entry.reason === null ? (
                        NO_VALUE
                      ) : (
                        <div className="audit-reason">
                          <UserText text={entry.reason} />
                        </div>
                      )}
                    </td>
                  </tr>
                  {whole && <UnusedNumbers entry={entry.id} older={entries[i + 1]?.id} />}
                </Fragment>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager
        className="audit-pager"
        label="Audit trail pages"
        steps={[
          {
            label: 'Newer entries',
            available: before.length > 0,
            onClick: () => show({ filters, before: before.slice(0, -1) }),
          },
          {
            label: 'Older entries',
            available: last !== undefined && (entries?.length ?? 0) >= PAGE_SIZE,
            onClick: () => last && show({ filters, before: [...before, last.id] }),
          },
        ]}
      />
    </section>
  );
}
