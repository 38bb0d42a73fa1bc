import { useState } from 'react';
import { deviceNamedIn, namedBlocker } from '../../../server/schemas/named-records.ts';
import { deleteAction, RecordDeletionDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { deviceMessages as messages } from '../../config/entity-messages.ts';
import type { Loaded } from '../../hooks/use-load.ts';
import type { Device } from '../../types/api.ts';
import { deleteDevice } from './api/delete-device.ts';
import { DeviceDialog } from './device-dialog.tsx';
import { adminStrings as s } from './strings.ts';

export function DevicesTab({ devices }: { devices: Loaded<Device[]> }) {
  const [editing, setEditing] = useState<Device | null>(null);
  const [deleting, setDeleting] = useState<Device | null>(null);

  return (
    <>
      <CardGrid
        items={devices.data}
        noun={messages.noun}
        loading={devices.loading}
        render={(device) => (
          <RecordCard
            key={device._id}
            title={device.name}
            tags={<StatusTag status={device.status ?? 'active'} />}
            actions={
              <RecordActions
                name={device.name}
                actions={[
                  { label: s.edit, onClick: () => setEditing(device) },
                  deleteAction(
                    messages.confirmDelete,
                    () => setDeleting(device),
                    namedBlocker(device.namedIn, deviceNamedIn),
                  ),
                ]}
              />
            }
          >
            <RecordField label={s.type}>{device.type || s.unknown}</RecordField>
            <RecordField label={s.id}>{device._id}</RecordField>
          </RecordCard>
        )}
      />
      {editing && (
        <DeviceDialog item={editing} onClose={() => setEditing(null)} onSaved={devices.reload} />
      )}
      {deleting && (
        <RecordDeletionDialog
          messages={messages}
          record={deleting}
          remove={deleteDevice}
          onDone={devices.reload}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
