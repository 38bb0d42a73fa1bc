import { type ReactNode, useState } from 'react';
import { lineNamedIn, namedBlocker } from '../../../server/schemas/named-records.ts';
import { deleteLineClearance } from '../../api/delete-line-clearance.ts';
import { deleteAction, RecordDeletionDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag, TagList } from '../../components/tag.tsx';
import { ClampedUserText } from '../../components/user-text.tsx';
import { lineClearanceMessages as messages } from '../../config/entity-messages.ts';
import { toastComingSoon } from '../../stores/toasts.ts';
import type { LineClearance } from '../../types/api.ts';
import { lcDialogSize, lcStrings as s } from './strings.ts';

export interface MyLinesTabProps {
  lines: readonly LineClearance[] | null;
  loading: boolean;
  /** The names of the line's operators (its own list and the operators that list it). */
  operatorsOf: (line: LineClearance) => string[];
  /** Said instead of the default when there is no card (why the list is empty). */
  empty?: ReactNode;
  onAdd: () => void;
  reload: () => void;
}

/** Spec §2: only the line clearances this manager manages; edit and assign are not built yet. */
export function MyLinesTab({ lines, loading, operatorsOf, empty, onAdd, reload }: MyLinesTabProps) {
  const [deleting, setDeleting] = useState<LineClearance | null>(null);
  return (
    <>
      <CardGrid
        onAdd={onAdd}
        items={lines}
        noun={messages.noun}
        loading={loading}
        empty={empty}
        render={(line) => {
          return (
            <RecordCard
              key={line._id}
              title={line.name}
              tags={<StatusTag status={line.status ?? 'active'} />}
              actions={
                <RecordActions
                  name={line.name}
                  actions={[
                    { label: s.edit, onClick: () => toastComingSoon(s.editLineClearance) },
                    { label: s.assign, onClick: () => toastComingSoon(s.assignOperators) },
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
              <RecordField label={s.operators}>
                <TagList names={operatorsOf(line)} empty={s.noOperators} />
              </RecordField>
              <RecordField label={s.id} recordId>
                {line._id}
              </RecordField>
            </RecordCard>
          );
        }}
      />
      {deleting && (
        <RecordDeletionDialog
          messages={messages}
          record={deleting}
          remove={deleteLineClearance}
          {...lcDialogSize}
          onDone={reload}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
