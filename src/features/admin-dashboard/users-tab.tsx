import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { deleteUser } from '../../api/delete-user.ts';
import { MediaLink } from '../../components/media-link.tsx';
import { deleteAction, RecordDeletionDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { RoleTags, Tag, TagList } from '../../components/tag.tsx';
import { userMessages as messages } from '../../config/entity-messages.ts';
import type { Loaded } from '../../hooks/use-load.ts';
import { deleteBlocker, manageableRoles, manageBlocker } from '../../lib/user-management.ts';
import { session } from '../../stores/session.ts';
import type { LineClearance, User } from '../../types/api.ts';
import { adminStrings as s } from './strings.ts';
import { UnlockDialog } from './unlock-dialog.tsx';
import { UserDialog } from './user-dialog.tsx';

/** Every account for the periodic access review (server/routes/users-csv.ts). */
const USERS_CSV = '/api/users.csv';

export interface UsersTabProps {
  users: Loaded<User[]>;
  lineClearances: readonly LineClearance[];
  /** After a save or a delete: the page reloads the users and what names them (lines, overview). */
  onChanged: () => void;
}

export function UsersTab({ users, lineClearances, onChanged }: UsersTabProps) {
  const { roles, info } = useSnapshot(session);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [unlocking, setUnlocking] = useState<User | null>(null);
  const lineName = new Map(lineClearances.map((line) => [line._id, line.name]));
  // What the server would refuse (403, or 409 for one's own account) is shown, not offered.
  const caller = { id: info?.id ?? null, roles };
  const mayAdd = manageableRoles(roles).length > 0;

  return (
    <>
      <CardGrid
        onAdd={mayAdd ? () => setEditing('new') : undefined}
        // The tab's audience (admins, factory managers) is the export's: no role check here.
        toolbar={
          <MediaLink className="btn btn-secondary" href={USERS_CSV}>
            {s.exportCsv}
          </MediaLink>
        }
        items={users.data}
        noun={messages.noun}
        loading={users.loading}
        render={(user) => {
          const assigned = user.lineClearanceIds ?? [];
          const blocker = manageBlocker(caller, user, lineClearances);
          return (
            <RecordCard
              key={user._id}
              title={user.name}
              tags={
                <>
                  <RoleTags role={user.role} />
                  {user.status === 'deactivated' && <Tag severity="secondary">{s.deactivated}</Tag>}
                  {user.lockedUntil && <Tag severity="danger">{s.locked}</Tag>}
                </>
              }
              actions={
                <RecordActions
                  name={user.name}
                  actions={[
                    { label: s.edit, onClick: () => setEditing(user), unavailable: blocker },
                    ...(user.lockedUntil
                      ? [
                          {
                            label: s.unlock,
                            onClick: () => setUnlocking(user),
                            unavailable: blocker,
                          },
                        ]
                      : []),
                    deleteAction(
                      messages.confirmDelete,
                      () => setDeleting(user),
                      deleteBlocker(caller, user, lineClearances),
                    ),
                  ]}
                />
              }
            >
              <RecordField label={s.email}>{user.email || s.noEmail}</RecordField>
              <RecordField label={s.lineClearances}>
                <TagList
                  names={assigned.map((id) => lineName.get(id) ?? id)}
                  empty={s.noneAssigned}
                />
              </RecordField>
              {/* A line's manager is named on the line, not ticked for the user: said here too,
                  or an LC manager's card reads 'None assigned' beside the lines it manages. */}
              {user.role.includes('lc_manager') && (
                <RecordField label={s.manages}>
                  <TagList
                    names={lineClearances
                      .filter((line) => line.managerId === user._id)
                      .map((line) => line.name)}
                    empty={s.managesNone}
                  />
                </RecordField>
              )}
              <RecordField label={s.id}>{user._id}</RecordField>
            </RecordCard>
          );
        }}
      />
      {editing && (
        <UserDialog
          item={editing === 'new' ? null : editing}
          lineClearances={lineClearances}
          onClose={() => setEditing(null)}
          onSaved={onChanged}
        />
      )}
      {deleting && (
        <RecordDeletionDialog
          messages={messages}
          record={deleting}
          remove={deleteUser}
          onDone={onChanged}
          onClose={() => setDeleting(null)}
        />
      )}
      {unlocking && (
        <UnlockDialog
          account={{ id: unlocking._id, name: unlocking.name }}
          onDone={users.reload}
          onClose={() => setUnlocking(null)}
        />
      )}
    </>
  );
}
