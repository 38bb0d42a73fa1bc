import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { getLineClearances } from '../../api/get-line-clearances.ts';
import { getUsers } from '../../api/get-users.ts';
import { type QuickAction, QuickActions } from '../../components/quick-actions.tsx';
import { TabBar } from '../../components/tab-bar.tsx';
import {
  deviceMessages,
  lineClearanceMessages,
  userMessages,
} from '../../config/entity-messages.ts';
import { useDashboardTab } from '../../hooks/use-dashboard-tab.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { dashboardLabelByRole, hasAnyRole, primaryRole, type Role } from '../../lib/roles.ts';
import { session } from '../../stores/session.ts';
import { toastComingSoon } from '../../stores/toasts.ts';
import type { LineClearance } from '../../types/api.ts';
import { getDevices } from './api/get-devices.ts';
import { DevicesTab } from './devices-tab.tsx';
import { LineClearanceDialog } from './line-clearance-dialog.tsx';
import { LineClearancesTab } from './line-clearances-tab.tsx';
import { LineOverviewSection, overviewReaders, useLinesOverview } from './line-overview.tsx';
import { SecurityAlertsPanel } from './security-alerts.tsx';
import { adminStrings as s } from './strings.ts';
import { UsersTab } from './users-tab.tsx';
import { VideosTab } from './videos-tab.tsx';

/** Spec §2 Admin / factory-manager dashboard (also served at /factory-manager). */
export default function AdminDashboardPage() {
  const snap = useSnapshot(session);
  const role = primaryRole(snap.roles);
  const isAdmin = snap.roles.includes('admin');
  const heading = usePageHeading(dashboardLabelByRole[role ?? 'admin']);
  const tabNames = ['line-clearances', 'users', 'devices', ...(isAdmin ? ['videos'] : [])];
  const [tab, setTab] = useDashboardTab(tabNames, 'line-clearances');
  const [lineDialog, setLineDialog] = useState<LineClearance | 'new' | null>(null);

  // Loaded once here: the Users and Videos tabs show line, user and device names from them.
  const lineClearances = useLoad(getLineClearances, lineClearanceMessages.loadFailed);
  const users = useLoad(getUsers, userMessages.loadFailed);
  const devices = useLoad(getDevices, deviceMessages.loadFailed);
  const overview = useLinesOverview(snap.roles);
  // A line clearance created, edited or deleted changes the overview above the tabs too.
  const linesChanged = () => {
    lineClearances.reload();
    overview.reload();
  };
  // A user renamed, given other roles or lines, or deleted: lines show their manager and operators.
  const usersChanged = () => {
    users.reload();
    linesChanged();
  };

  const comingSoon = (label: string) => ({ label, onClick: () => toastComingSoon(label) });
  // Spec §2: extra quick actions for factory and LC managers; everyone gets the shared links.
  const quickActionsByRole: Partial<Record<Role, QuickAction[]>> = {
    factory_manager: [comingSoon(s.createNewArea), comingSoon(s.manageLcManagers)],
    lc_manager: [
      { label: s.createNewLineClearance, onClick: () => setLineDialog('new') },
      comingSoon(s.assignOperators),
    ],
  };

  return (
    <section className="page dashboard">
      <h1 ref={heading} tabIndex={-1}>
        {dashboardLabelByRole[role ?? 'admin']}
      </h1>
      <SecurityAlertsPanel
        users={users.data ?? []}
        lineClearances={lineClearances.data ?? []}
        onUnlocked={users.reload}
        onCleared={() => heading.current?.focus()}
      />
      <QuickActions actions={(role && quickActionsByRole[role]) || []} />
      {hasAnyRole(snap.roles, overviewReaders) && <LineOverviewSection overview={overview} />}
      <Tabs.Root className="tabs" value={tab} onValueChange={setTab}>
        <TabBar
          label={s.tabsLabel}
          tabs={[
            { value: 'line-clearances', label: s.lineClearancesTab },
            { value: 'users', label: s.usersTab },
            { value: 'devices', label: s.devicesTab },
            // Spec §6: the Videos tab, and so its data, exists only for admins.
            ...(isAdmin ? [{ value: 'videos', label: s.videosTab }] : []),
          ]}
        />
        <Tabs.Content className="tab-panel" value="line-clearances">
          <LineClearancesTab
            lineClearances={lineClearances}
            users={users.data ?? []}
            onEdit={setLineDialog}
            onDeleted={linesChanged}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="users">
          <UsersTab
            users={users}
            lineClearances={lineClearances.data ?? []}
            onChanged={usersChanged}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="devices">
          <DevicesTab devices={devices} />
        </Tabs.Content>
        {isAdmin && (
          <Tabs.Content className="tab-panel" value="videos">
            <VideosTab
              lineClearances={lineClearances.data ?? []}
              users={users.data ?? []}
              devices={devices.data ?? []}
            />
          </Tabs.Content>
        )}
      </Tabs.Root>
      {lineDialog && (
        <LineClearanceDialog
          item={lineDialog === 'new' ? null : lineDialog}
          users={users.data ?? []}
          onClose={() => setLineDialog(null)}
          onSaved={linesChanged}
        />
      )}
    </section>
  );
}
