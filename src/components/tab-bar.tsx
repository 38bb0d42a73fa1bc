import { Tabs } from 'radix-ui';

export interface TabBarProps {
  label: string;
  tabs: readonly { value: string; label: string }[];
}

/** The row of tab buttons inside a Radix Tabs.Root (arrow keys move between them). */
export function TabBar({ label, tabs }: TabBarProps) {
  return (
    <Tabs.List className="tab-list" aria-label={label}>
      {tabs.map((tab) => (
        <Tabs.Trigger key={tab.value} className="tab" value={tab.value}>
          {tab.label}
        </Tabs.Trigger>
      ))}
    </Tabs.List>
  );
}
