import { useState } from 'react';
import { lineNamedIn, namedBlocker } from '../../../server/schemas/named-records.ts';
import { deleteLineClearance } from '../../api/delete-line-clearance.ts';
import { deleteAction, RecordDeletionDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { ClampedUserText } from '../../components/user-text.tsx';
import { lineClearanceMessages as messages } from '../../config/entity-messages.ts';
import type { Loaded } from '../../hooks/use-load.ts';
import type { LineClearance, User } from '../../types/api.ts';
import { adminStrings as s } from './strings.ts';

export interface LineClearancesTabProps {
  lineClearances: Loaded<LineClearance[]>;
  /** The loaded users, to name each line's LC manager. */
  users: readonly User[];
  /** The page owns the dialog: its 'Create New Line Clearance' quick action opens it too. */
  onEdit: (item: LineClearance | 'new') => void;
  /** After a delete, or a refused one (the record gone or kept): the page reloads what it shows. */
  onDeleted: () => void;
}

export function LineClearancesTab({
  lineClearances,
  users,
  onEdit: setEditing,
  onDeleted,
}: LineClearancesTabProps) {
  const managerName = (id: string | null) =>
    id === null ? s.noManager : (users.find((user) => user._id === id)?.name ?? s.unknown);
  const [deleting, setDeleting] = useState<LineClearance | null>(null);
  return (
    <>
      <CardGrid
        onAdd={() => setEditing('new')}
        items={lineClearances.data}
        noun={messages.noun}
        loading={lineClearances.loading}
        render={(line) => (
          <RecordCard
            key={line._id}
            title={line.name}
            tags={<StatusTag status={line.status ?? 'active'} />}
            actions={
              <RecordActions
                name={line.name}
                actions={[
                  { label: s.edit, onClick: () => setEditing(line) },
                  deleteAction(
                    messages.confirmDelete,
                    () => setDeleting(line),
                    namedBlocker(line.namedIn, lineNamedIn),
                  ),
                ]}
              />
            }
          >
            <RecordField label={s.description}>
              <ClampedUserText
                text={line.description}
                about={`${s.description} of ${line.name}`}
                empty={s.noDescription}
              />
            </RecordField>
            <RecordField label={s.location}>{line.location || s.noLocation}</RecordField>
            <RecordField label={s.lcManager}>{managerName(line.managerId)}</RecordField>
            <RecordField label={s.id}>{line._id}</RecordField>
          </RecordCard>
        )}
      />
      {deleting && (
        <RecordDeletionDialog
          messages={messages}
          record={deleting}
          remove={deleteLineClearance}
          onDone={onDeleted}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
