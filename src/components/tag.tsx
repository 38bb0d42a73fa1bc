import type { ReactNode } from 'react';
import { roleLabel, roleList, roleSeverity, type Severity } from '../lib/roles.ts';
import { statusSeverity } from '../lib/status.ts';

export function Tag({
  severity,
  recordName = false,
  children,
}: {
  severity: Severity;
  /** The tag is a record's name, which may be long: it wraps inside its field. */
  recordName?: boolean;
  children: ReactNode;
}) {
  return (
    <span className={`tag tag-${severity}${recordName ? ' tag-name wrap-anywhere' : ''}`}>
      {children}
    </span>
  );
}

export function RoleTags({ role }: { role: string | readonly string[] | null | undefined }) {
  return (
    <>
      {roleList(role).map((name) => (
        <Tag key={name} severity={roleSeverity(name)}>
          {roleLabel(name)}
        </Tag>
      ))}
    </>
  );
}

export function StatusTag({ status }: { status: string }) {
  return <Tag severity={statusSeverity(status)}>{status}</Tag>;
}

/** Names as info tags, or the fallback text when there are none ('None assigned'). */
export function TagList({ names, empty }: { names: readonly string[]; empty: string }) {
  if (names.length === 0) return <>{empty}</>;
  return (
    <>
      {names.map((name, index) => (
        // Two records may share a name; the position keeps keys unique.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole, never reordered.
        <Tag key={`${index}-${name}`} severity="info" recordName>
          {name}
        </Tag>
      ))}
    </>
  );
}
