import { useEffect, useState } from 'react';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { Field, TextField } from '../../components/field.tsx';
import { Select } from '../../components/select.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import type { DateRange } from '../../lib/date-range.ts';
import { localTime, utcTime } from '../../lib/record-time.ts';
import type { AuditEntry, AuditFacets, AuditQuery, TrailVerification } from '../../types/api.ts';
import { auditCsvUrl, getAuditFacets, getAuditTrail, verifyTrail } from './api/audit-trail.ts';

const PAGE_SIZE = 50;

interface TrailFilters {
  actor: string;
  action: string;
  entity: string;
  entityId: string;
  range: DateRange | null;
}

const noFilters: TrailFilters = { actor: '', action: '', entity: '', entityId: '', range: null };

const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '—' : text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A record's fields as lines, leaving out the empty ones and the reason (it has its column). */
const fieldLines = (value: Record<string, unknown>, suffix = '') =>
  Object.entries(value)
    .filter(([key, field]) => field != null && field !== '' && key !== 'reason')
    .map(([key, field]) => `${key}: ${short(field)}${suffix}`);

/**
 * Old → new as readable lines: each field that changed; a record created or removed as its
 * fields; the whole value when not objects.
 */
export function changes(oldValue: unknown, newValue: unknown): string[] {
  if (oldValue == null && newValue == null) return [];
  if (oldValue == null && isObject(newValue)) return fieldLines(newValue);
  if (isObject(oldValue) && newValue == null) return fieldLines(oldValue, ' → —');
  if (!isObject(oldValue) || !isObject(newValue)) {
    return [`${oldValue == null ? '' : `${short(oldValue)} → `}${short(newValue)}`];
  }
  return [...new Set([...Object.keys(oldValue), ...Object.keys(newValue)])]
    .filter((key) => JSON.stringify(oldValue[key]) !== JSON.stringify(newValue[key]))
    .map((key) => `${key}: ${short(oldValue[key])} → ${short(newValue[key])}`);
}

/** The reason the entry records, where one was given (a refusal, a dismissal, a signature's notes). */
export function reasonOf(entry: AuditEntry): string | null {
  const value = isObject(entry.newValue) ? entry.newValue : null;
  const signature = value && isObject(value.signature) ? value.signature : null;
  const reason = value?.reason ?? signature?.notes;
  return typeof reason === 'string' && reason ? reason : null;
}

/** The audit trail viewer: filters, entries with old → new, paging, CSV and the chain check. */
export function AuditTrailSection() {
  const [filters, setFilters] = useState<TrailFilters>(noFilters);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [before, setBefore] = useState<number[]>([]);
  const [verification, setVerification] = useState<TrailVerification | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [facets, setFacets] = useState<AuditFacets>({ actions: [], entities: [] });
  const query: AuditQuery = {
    actor: filters.actor.trim() || undefined,
    action: filters.action.trim() || undefined,
    entity: filters.entity.trim() || undefined,
    entityId: filters.entityId.trim() || undefined,
    from: filters.range?.start.toISOString(),
    to: filters.range?.end.toISOString(),
    limit: PAGE_SIZE,
    before: before[before.length - 1],
  };

  // The filters' choices; without them (a failed call) the lists hold only "All".
  useEffect(() => {
    getAuditFacets().then(setFacets, () => undefined);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is rebuilt from its inputs each render.
  useEffect(() => {
    let current = true;
    getAuditTrail(query).then(
      (answer) => current && setEntries(answer),
      () => current && setEntries([]),
    );
    return () => {
      current = false;
    };
  }, [filters, before]);

  const change = (patch: Partial<TrailFilters>) => {
    setFilters((previous) => ({ ...previous, ...patch }));
    setBefore([]);
  };
  const verify = async () => {
    setVerifying(true);
    try {
      setVerification(await verifyTrail());
    } finally {
      setVerifying(false);
    }
  };
  const last = entries?.[entries.length - 1];

  return (
    <section className="audit-panel" aria-labelledby="audit-trail">
      <div className="audit-panel-head">
        <h2 id="audit-trail">Audit trail</h2>
        <button type="button" className="btn btn-primary" onClick={verify} disabled={verifying}>
          {verifying ? 'Verifying…' : 'Verify trail'}
        </button>
      </div>
      <div role="status">
        {verification?.ok && (
          <p className="audit-verified">
            The trail verifies: {verification.checked} entries, each linked to the one before. Head
            hash <code>{verification.headHash}</code>
          </p>
        )}
        {verification && !verification.ok && (
          <p className="report-warning">
            The trail is broken at entry {verification.firstBroken?.id}:{' '}
            {verification.firstBroken?.problem === 'hash'
              ? 'its content no longer matches its hash (it was edited).'
              : 'it does not link to the entry before it (an entry was removed or inserted).'}
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
              options={options}
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
        <DateRangePicker
          value={filters.range}
          onChange={(range) => change({ range })}
          placeholder="Filter by date range"
        />
        <div className="audit-filter-actions">
          <button type="button" className="btn btn-secondary" onClick={() => change(noFilters)}>
            Clear Filters
          </button>
          <a className="btn btn-secondary" href={auditCsvUrl(query)} download>
            Export CSV
          </a>
        </div>
      </search>
      {entries?.length === 0 && <p>No entries match these filters.</p>}
      {entries && entries.length > 0 && (
        <TableScroll label="Audit trail entries">
          <table className="report-table audit-table">
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
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row">
                    {utcTime(entry.at, true) ?? entry.at}
                    {new Date(entry.at).getTimezoneOffset() !== 0 && (
                      <span className="muted audit-local">{localTime(entry.at, true)} local</span>
                    )}
                  </th>
                  <td>{entry.actorEmail ?? 'system'}</td>
                  <td>
                    {entry.action} {entry.entity}
                    {entry.entityId && <span className="muted audit-id"> {entry.entityId}</span>}
                  </td>
                  <td>
                    <ul className="audit-changes">
                      {changes(entry.oldValue, entry.newValue).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  </td>
                  <td>{reasonOf(entry) ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <nav className="audit-pager" aria-label="Audit trail pages">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={before.length === 0}
          onClick={() => setBefore((previous) => previous.slice(0, -1))}
        >
          Newer entries
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!last || (entries?.length ?? 0) < PAGE_SIZE}
          onClick={() => last && setBefore((previous) => [...previous, last.id])}
        >
          Older entries
        </button>
      </nav>
    </section>
  );
}
