import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { getLineClearances } from '../../api/get-line-clearances.ts';
import { getUsers } from '../../api/get-users.ts';
import { QuickActions } from '../../components/quick-actions.tsx';
import { TabBar } from '../../components/tab-bar.tsx';
import {
  inspectionMessages,
  lineClearanceMessages,
  operatorMessages,
} from '../../config/entity-messages.ts';
import { paths } from '../../config/paths.ts';
import { useDashboardTab } from '../../hooks/use-dashboard-tab.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { hasAnyRole, roleList } from '../../lib/roles.ts';
import { deleteBlocker } from '../../lib/user-management.ts';
import { session } from '../../stores/session.ts';
import type { LineClearance, User } from '../../types/api.ts';
import { getInspections } from './api/get-inspections.ts';
import { AreaDialog } from './area-dialog.tsx';
import { InspectionsTab } from './inspections-tab.tsx';
import { MyLinesTab } from './my-lines-tab.tsx';
import { OperatorDialog } from './operator-dialog.tsx';
import { OperatorsTab } from './operators-tab.tsx';
import { lcStrings as s } from './strings.ts';

const tabNames = ['line-clearances', 'operators', 'inspections'] as const;

/** Who reach this page and read every line (docs/permissions.md, "Read scope"). */
const everyLineReaders = ['factory_manager', 'admin'] as const;

/**
 * Why a list keeping only the caller's lines (spec §2) is empty when it manages none: not that
 * there is no work, and where the lines are.
 */
function NoLineManaged({ readsEveryLine }: { readsEveryLine: boolean }) {
  const [before, link, after] = s.noLineManaged.seeReports;
  return (
    <>
      {s.noLineManaged.rule}{' '}
      {readsEveryLine ? (
        <>
          {before} <Link href={paths.reports}>{link}</Link> {after}
        </>
      ) : (
        s.noLineManaged.noneYet
      )}
    </>
  );
}

/** Spec §2 LC manager dashboard. */
export default function LcManagerDashboardPage() {
  const heading = usePageHeading(s.title);
  const snap = useSnapshot(session);
  const managerId = snap.info?.id ?? '';
  const [tab, setTab] = useDashboardTab(tabNames, 'line-clearances');
  const [dialog, setDialog] = useState<'area' | 'operator' | null>(null);

  const lines = useLoad(getLineClearances, lineClearanceMessages.loadFailed);
  const users = useLoad(getUsers, operatorMessages.loadFailed);
  const inspections = useLoad(getInspections, inspectionMessages.loadFailed);

  const myLines = lines.data?.filter((line) => line.managerId === managerId) ?? null;
  const noLineManaged =
    myLines?.length === 0 ? (
      <NoLineManaged readsEveryLine={hasAnyRole(roleList(snap.roles), everyLineReaders)} />
    ) : undefined;
  const myLineIds = new Set(myLines?.map((line) => line._id));
  const operators = users.data?.filter((user) => roleList(user.role).includes('operator')) ?? null;
  const userName = new Map(
    users.data?.flatMap((user) => [
      [user._id, user.name],
      [user.id ?? user._id, user.name],
    ]),
  );
  const lineName = new Map(lines.data?.map((line) => [line._id, line.name]));
  const operatorName = (id: string) => userName.get(id) ?? id;
  // An assignment is written on either side (the admin forms edit both): the ids a record lists,
  // and those of the other side's records that list it.
  const linked = <T extends { _id: string }>(
    own: readonly string[] | undefined,
    others: readonly T[] | null,
    listsIt: (other: T) => boolean,
  ) => new Set([...(own ?? []), ...(others ?? []).filter(listsIt).map((other) => other._id)]);
  const areasOf = (operator: User) =>
    [
      ...linked(operator.lineClearanceIds, lines.data, (line) =>
        Boolean(line.assignedOperators?.includes(operator._id)),
      ),
    ].map((id) => lineName.get(id) ?? id);
  const operatorsOf = (line: LineClearance) =>
    [
      ...linked(line.assignedOperators, operators, (operator) =>
        Boolean(operator.lineClearanceIds?.includes(line._id)),
      ),
    ].map(operatorName);
  const myInspections =
    inspections.data?.filter((inspection) => myLineIds.has(inspection.lineClearanceId)) ?? null;

  // What waits for this manager's signature, seen from any tab (QA: the count showed only inside).
  const pendingCount =
    myInspections?.filter((inspection) => inspection.status === 'pending').length ?? 0;

  return (
    <section className="page dashboard">
      <h1 ref={heading} tabIndex={-1}>
        {s.title}
      </h1>
      <QuickActions
        actions={[
          { label: s.createNewLineClearance, onClick: () => setDialog('area') },
          { label: s.manageOperators, onClick: () => setTab('operators') },
        ]}
      />
      <Tabs.Root className="tabs" value={tab} onValueChange={setTab}>
        <TabBar
          label={s.tabsLabel}
          tabs={[
            { value: 'line-clearances', label: s.lineClearancesTab },
            { value: 'operators', label: s.operatorsTab },
            { value: 'inspections', label: s.inspectionsTabWithPending(pendingCount) },
          ]}
        />
        <Tabs.Content className="tab-panel" value="line-clearances">
          <MyLinesTab
            lines={myLines}
            loading={lines.loading}
            operatorsOf={operatorsOf}
            empty={noLineManaged}
            onAdd={() => setDialog('area')}
            reload={lines.reload}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="operators">
          <OperatorsTab
            operators={operators}
            loading={users.loading}
            areasOf={areasOf}
            deleteBlockerOf={(operator) =>
              deleteBlocker(
                { id: managerId || null, roles: snap.roles },
                operator,
                lines.data ?? [],
              )
            }
            onAdd={() => setDialog('operator')}
            reload={users.reload}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="inspections">
          <InspectionsTab
            inspections={myInspections}
            loading={inspections.loading || lines.loading}
            lineName={(id) => lineName.get(id)}
            operatorName={operatorName}
            empty={noLineManaged}
            reload={inspections.reload}
          />
        </Tabs.Content>
      </Tabs.Root>
      {dialog === 'area' && (
        <AreaDialog managerId={managerId} onClose={() => setDialog(null)} onSaved={lines.reload} />
      )}
      {dialog === 'operator' && (
        <OperatorDialog onClose={() => setDialog(null)} onSaved={users.reload} />
      )}
    </section>
  );
}
