import { useEffect, useState } from 'react';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { Field, TextField } from '../../components/field.tsx';
import { MediaLink } from '../../components/media-link.tsx';
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

/** How the trail writes "no value": a field absent, null or empty. */
export const NO_VALUE = '—';
/** Longer values are cut on the line; the whole value is a click (or Enter) away. */
const LINE_LIMIT = 160;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** A value on one line: text as is, anything else as JSON. */
const inline = (value: unknown) =>
  isEmpty(value) ? NO_VALUE : typeof value === 'string' ? value : JSON.stringify(value);

/** A value in full: text as is, anything else as indented JSON. */
const whole = (value: unknown) =>
  isEmpty(value) ? NO_VALUE : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

const cut = (text: string) => (text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT)}…` : text);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One changed field: `line` reads it on one line (long values cut); `full` is set when something
 * was cut, with each side whole (`old` absent where the line shows no old side).
 */
export interface Change {
  line: string;
  full: { old?: string; new: string } | null;
}

function change(key: string | null, sides: { old?: unknown; new: unknown }): Change {
  const texts = [...('old' in sides ? [inline(sides.old)] : []), inline(sides.new)];
  const line = `${key === null ? '' : `${key}: `}${texts.map(cut).join(' → ')}`;
  const wasCut = texts.some((text) => text.length > LINE_LIMIT);
  return {
    line,
    full: wasCut
      ? { ...('old' in sides ? { old: whole(sides.old) } : {}), new: whole(sides.new) }
      : null,
  };
}

/** A record's fields, leaving out the empty ones and the reason (it has its column). */
const fieldChanges = (value: Record<string, unknown>, removed: boolean) =>
  Object.entries(value)
    .filter(([key, field]) => !isEmpty(field) && key !== 'reason')
    .map(([key, field]) => change(key, removed ? { old: field, new: null } : { new: field }));

/**
 * Old → new per field that changed; a record created or removed as its fields; the whole value
 * when not objects. Absent, null and empty all read '—', and a field that goes from one of them
 * to another did not change.
 */
export function changes(oldValue: unknown, newValue: unknown): Change[] {
  if (isEmpty(oldValue) && isEmpty(newValue)) return [];
  if (isEmpty(oldValue) && isObject(newValue)) return fieldChanges(newValue, false);
  if (isObject(oldValue) && isEmpty(newValue)) return fieldChanges(oldValue, true);
  if (!isObject(oldValue) || !isObject(newValue)) {
    return [change(null, isEmpty(oldValue) ? { new: newValue } : { old: oldValue, new: newValue })];
  }
  return [...new Set([...Object.keys(oldValue), ...Object.keys(newValue)])]
    .filter((key) => !(isEmpty(oldValue[key]) && isEmpty(newValue[key])))
    .filter((key) => JSON.stringify(oldValue[key]) !== JSON.stringify(newValue[key]))
    .map((key) => change(key, { old: oldValue[key], new: newValue[key] }));
}

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
  const broken = verification?.firstBroken ?? null;
  // The page that starts at an entry: no filters, everything older than the one after it.
  const showEntry = (id: number) => {
    setFilters(noFilters);
    setBefore([id + 1]);
  };

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
          <MediaLink className="btn btn-secondary" href={auditCsvUrl(query)}>
            Export CSV
          </MediaLink>
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
                <tr key={entry.id} className={entry.id === broken?.id ? 'audit-broken' : undefined}>
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
                  <td>{entry.actorEmail ?? 'system'}</td>
                  <td>
                    {entry.action} {entry.entity}
                    {entry.entityId && <span className="muted audit-id"> {entry.entityId}</span>}
                  </td>
                  <td>
                    <ul className="audit-changes">
                      {changes(entry.oldValue, entry.newValue).map((item) => (
                        <ChangeItem key={item.line} item={item} />
                      ))}
                    </ul>
                  </td>
                  <td>{entry.reason ?? NO_VALUE}</td>
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
