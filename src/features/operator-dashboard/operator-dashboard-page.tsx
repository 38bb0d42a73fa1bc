import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { getMyDevices } from '../../api/get-my-devices.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { uploadQueue } from '../../lib/capture/upload-queue.ts';
import { getMyInspections } from './api/get-my-inspections.ts';
import { getMyLines } from './api/get-my-lines.ts';
import { DevicesSection } from './devices-section.tsx';
import { LinesSection } from './lines-section.tsx';
import { PendingUploads } from './pending-uploads.tsx';
import { RecentInspections } from './recent-inspections.tsx';
import { RejectedLines } from './rejected-lines.tsx';
import { operatorStrings as s } from './strings.ts';
import './operator-dashboard.css';

/** /operator: the operator's lines, recordings still on this device, inspections and devices. */
export default function OperatorDashboardPage() {
  const heading = usePageHeading(s.title);
  const lines = useLoad(getMyLines, s.linesLoadFailed);
  const inspections = useLoad(getMyInspections, s.recentLoadFailed);
  const devices = useLoad(getMyDevices, s.devicesLoadFailed);
  const { verifiedCount, discardedCount } = useSnapshot(uploadQueue);

  // A verified upload, or a discard the server recorded, changes what the server says of the
  // inspection: its upload and analysis state, and the line's last inspection.
  const serverChanges = verifiedCount + discardedCount;
  const shownChanges = useRef(serverChanges);
  const reloadLines = lines.reload;
  const reloadInspections = inspections.reload;
  useEffect(() => {
    if (serverChanges === shownChanges.current) return;
    shownChanges.current = serverChanges;
    reloadLines();
    reloadInspections();
  }, [serverChanges, reloadLines, reloadInspections]);

  return (
    <section className="page dashboard operator-dashboard">
      <h1 ref={heading} tabIndex={-1}>
        {s.title}
      </h1>
      <RejectedLines lines={lines.data} inspections={inspections.data} />
      <LinesSection lines={lines.data} loading={lines.loading} />
      <PendingUploads />
      <RecentInspections inspections={inspections.data} loading={inspections.loading} />
      <DevicesSection
        devices={devices.data}
        lines={lines.data}
        loading={devices.loading}
        reload={devices.reload}
      />
    </section>
  );
}
