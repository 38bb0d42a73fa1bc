import { useState } from 'react';
import { deleteUser } from '../../api/delete-user.ts';
import { deleteAction, RecordDeletionDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { RoleTags, TagList } from '../../components/tag.tsx';
import { operatorMessages as messages } from '../../config/entity-messages.ts';
import { toastComingSoon } from '../../stores/toasts.ts';
import type { User } from '../../types/api.ts';
import { lcDialogSize, lcStrings as s } from './strings.ts';

export interface OperatorsTabProps {
  operators: readonly User[] | null;
  loading: boolean;
  /** Names of the areas an operator is assigned to. */
  areasOf: (operator: User) => string[];
  /** Why the server would refuse to delete this operator (not on the caller's lines, say), or null. */
  deleteBlockerOf: (operator: User) => string | null;
  onAdd: () => void;
  reload: () => void;
}

export function OperatorsTab({
  operators,
  loading,
  areasOf,
  deleteBlockerOf,
  onAdd,
  reload,
}: OperatorsTabProps) {
  const [deleting, setDeleting] = useState<User | null>(null);
  return (
    <>
      <CardGrid
        onAdd={onAdd}
        items={operators}
        noun={messages.noun}
        loading={loading}
        render={(operator) => {
          return (
            <RecordCard
              key={operator._id}
              title={operator.name}
              tags={<RoleTags role={operator.role} />}
              actions={
                <RecordActions
                  name={operator.name}
                  actions={[
                    { label: s.edit, onClick: () => toastComingSoon(s.editOperator) },
                    { label: s.assignAreas, onClick: () => toastComingSoon(s.assignAreas) },
                    deleteAction(
                      messages.confirmDelete,
                      () => setDeleting(operator),
                      deleteBlockerOf(operator),
                    ),
                  ]}
                />
              }
            >
              <RecordField label={s.email}>{operator.email || s.noEmail}</RecordField>
              <RecordField label={s.areas}>
                <TagList names={areasOf(operator)} empty={s.noAreas} />
              </RecordField>
              <RecordField label={s.id} recordId>
                {operator._id}
              </RecordField>
            </RecordCard>
          );
        }}
      />
      {deleting && (
        <RecordDeletionDialog
          messages={messages}
          record={deleting}
          remove={deleteUser}
          {...lcDialogSize}
          onDone={reload}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
