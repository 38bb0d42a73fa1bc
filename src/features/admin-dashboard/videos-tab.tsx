import { useState } from 'react';
import { Link } from 'wouter';
import { deletionWords, ReasonDialog } from '../../components/reason-dialog.tsx';
import { CardGrid, RecordActions, RecordCard, RecordField } from '../../components/record-card.tsx';
import { StatusTag, Tag } from '../../components/tag.tsx';
import { videoMessages as messages } from '../../config/entity-messages.ts';
import { videoPath } from '../../config/paths.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { lengthInSeconds } from '../../lib/format-duration.ts';
import { formatSize } from '../../lib/format-size.ts';
import { localTime } from '../../lib/record-time.ts';
import { awaitingUpload, videoDuration, videoIdOf, videoSize } from '../../lib/video.ts';
import { toastError, toastLife } from '../../stores/toasts.ts';
import type { AdminVideo, Device, LineClearance, User } from '../../types/api.ts';
import { deleteAdminVideo } from './api/delete-admin-video.ts';
import { getAdminVideos } from './api/get-admin-videos.ts';
import { adminStrings as s } from './strings.ts';
import { deletionSummary } from './video-deletion.ts';

export interface VideosTabProps {
  lineClearances: readonly LineClearance[];
  users: readonly User[];
  devices: readonly Device[];
}

/** Spec §2 related-data tags, in the user's words. */
const relatedLabels = {
  predictions: 'predictions',
  reports: 'reports',
  floorplanConfigs: 'floorplan configs',
  floorplans: 'floorplans',
} as const;
const relatedKeys = Object.keys(relatedLabels) as (keyof typeof relatedLabels)[];

function when(timestamp: string | undefined): string {
  return (timestamp && localTime(timestamp, true)) ?? s.unknown;
}

/** Spec §2 Videos tab, admin only: its component (and so its request) exists only for admins. */
export function VideosTab({ lineClearances, users, devices }: VideosTabProps) {
  const videos = useLoad(getAdminVideos, messages.loadFailed);
  const lineName = new Map(lineClearances.map((line) => [line._id, line.name]));
  const userName = new Map(
    users.flatMap((user) => [
      [user._id, user.name],
      [user.id ?? user._id, user.name],
    ]),
  );
  const deviceName = new Map(devices.map((device) => [device._id, device.name]));
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);

  const remove = (video: AdminVideo, title: string) => {
    const id = videoIdOf(video);
    if (!id) {
      toastError(s.invalidVideoId);
      return;
    }
    // Spec §5: the browser's confirmation first; then the reason the audit trail keeps.
    if (window.confirm(s.confirmDeleteVideo)) setDeleting({ id, title });
  };

  return (
    <>
      <CardGrid
        toolbar={
          <button type="button" className="btn btn-secondary" onClick={videos.reload}>
            {s.refresh}
          </button>
        }
        items={videos.data}
        loading={videos.loading}
        noun={messages.noun}
        render={(video) => {
          const id = videoIdOf(video);
          const line = video.lineClearanceId ? lineName.get(video.lineClearanceId) : undefined;
          const userId = video.userId ?? video.operatorId;
          const size = videoSize(video);
          const duration = videoDuration(video);
          const title = `${line ?? s.unknownLine} – ${when(video.timestamp)}`;
          return (
            <RecordCard
              key={id ?? title}
              title={title}
              tags={<StatusTag status={video.status ?? 'pending'} />}
              actions={
                <>
                  {id && (
                    <Link
                      href={videoPath(id)}
                      className="btn btn-secondary"
                      aria-label={`${s.view} ${title}`}
                    >
                      {s.view}
                    </Link>
                  )}
                  <RecordActions
                    name={title}
                    actions={[
                      {
                        label: s.delete,
                        variant: 'danger',
                        onClick: () => remove(video, title),
                        // The server keeps a signed inspection's video (409): say so before a click.
                        unavailable: video.signedEvidence ? s.signedEvidenceKept : null,
                      },
                    ]}
                  />
                </>
              }
            >
              <RecordField label={s.device}>
                {(video.deviceId && deviceName.get(video.deviceId)) || s.unknown}
              </RecordField>
              <RecordField label={s.user}>
                {(userId && userName.get(userId)) || s.unknown}
              </RecordField>
              <RecordField label={s.line}>{line ?? s.unknown}</RecordField>
              <RecordField label={s.duration}>{lengthInSeconds(duration) ?? s.unknown}</RecordField>
              <RecordField label={s.size}>
                {awaitingUpload(video)
                  ? s.fileNotUploaded
                  : size == null
                    ? s.unknown
                    : formatSize(size)}
              </RecordField>
              <RecordField label={s.relatedData}>
                {relatedKeys.map((key) => (
                  <Tag key={key} severity="secondary">
                    {`${relatedLabels[key]}: ${video.relatedData?.[key] ?? 0}`}
                  </Tag>
                ))}
              </RecordField>
            </RecordCard>
          );
        }}
      />
      {/* The server requires a reason for an inspection's video (original GMP data); the app asks
          for every video, by the rule the server checks. */}
      {deleting && (
        <ReasonDialog
          {...deletionWords(messages.noun[0])}
          title={s.deleteVideoTitle}
          subject={deleting.title}
          act={(reason) => deleteAdminVideo(deleting.id, reason)}
          success={deletionSummary}
          failure={messages.deleteFailed}
          successLife={toastLife.long}
          onDone={videos.reload}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
