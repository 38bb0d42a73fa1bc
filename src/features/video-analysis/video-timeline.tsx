import { memo, useCallback, useMemo } from 'react';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { MultiSelect } from '../../components/multi-select.tsx';
import { PagedList, usePage } from '../../components/paged-list.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { videoStrings as s } from '../../components/video-review/strings.ts';
import { videoMessages } from '../../config/entity-messages.ts';
import { useLatest } from '../../hooks/use-latest.ts';
import { lengthInSeconds } from '../../lib/format-duration.ts';
import { localTime } from '../../lib/record-time.ts';
import { videoDuration, videoIdOf } from '../../lib/video.ts';
import type { LineClearance, User, Video } from '../../types/api.ts';
import type { VideoFilters } from './api/get-videos.ts';

export interface VideoTimelineProps {
  /** Null until the first answer. */
  videos: readonly Video[] | null;
  loading: boolean;
  users: readonly User[];
  lineClearances: readonly LineClearance[];
  filters: VideoFilters;
  onFiltersChange(filters: VideoFilters): void;
  selectedId: string | null;
  onSelect(video: Video): void;
}

export const noFilters: VideoFilters = { range: null, userIds: [], lineIds: [] };

function recordedAt(timestamp: string): string {
  return localTime(timestamp) ?? s.unknown;
}

function durationText(video: Video): string {
  return lengthInSeconds(videoDuration(video)) ?? s.unknown;
}

/** Newest first: the inspection just recorded is the one a reviewer usually looks for. */
function byTimeNewestFirst(videos: readonly Video[]): Video[] {
  const time = (video: Video) => {
    const value = Date.parse(video.timestamp);
    return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
  };
  return [...videos].sort((a, b) => time(b) - time(a));
}

/** Cards drawn at once: the whole list of a plant (20,000 videos) took 9.7 s to draw. */
const timelinePageSize = 50;

interface VideoRowProps {
  video: Video;
  line: string;
  operator: string;
  selected: boolean;
  onSelect(video: Video): void;
}

/**
 * One video's card. Memoised: selecting a video changes two cards, and redrawing every one took
 * 4.8 s on a plant's list.
 */
const VideoRow = memo(function VideoRow({
  video,
  line,
  operator,
  selected,
  onSelect,
}: VideoRowProps) {
  return (
    <li>
      <button
        type="button"
        className={`va-video-card${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(video)}
      >
        <span className="record-header">
          <span className="va-video-line wrap-anywhere">{line}</span>
          <StatusTag status={video.status} />
        </span>
        <span className="va-video-when">{recordedAt(video.timestamp)}</span>
        <span>
          {s.operator}: {operator}
        </span>
        <span>
          {s.duration}: {durationText(video)}
        </span>
      </button>
    </li>
  );
});

/** Spec §2 left sidebar: filters by date range, users and line clearances, then the videos. */
export function VideoTimeline(props: VideoTimelineProps) {
  const { videos, loading, users, lineClearances, filters, onFiltersChange } = props;
  const lineName = useMemo(
    () => new Map(lineClearances.map((line) => [line._id, line.name])),
    [lineClearances],
  );
  const userName = useMemo(
    () => new Map(users.flatMap((user) => [[user._id, user.name] as const])),
    [users],
  );
  const sorted = useMemo(() => videos && byTimeNewestFirst(videos), [videos]);
  // Back to the first page when the filters change, and to the selected video's page when the
  // selection changes (a link to /video/{id} shows its card).
  const paging = usePage(sorted?.length ?? 0, timelinePageSize, filters, {
    key: props.selectedId,
    index: () =>
      props.selectedId === null || !sorted
        ? -1
        : sorted.findIndex((video) => videoIdOf(video) === props.selectedId),
  });
  // The page passes a new onSelect on each render: a stable one keeps the memoised rows as they are.
  const onSelect = useLatest(props.onSelect);
  const select = useCallback((video: Video) => onSelect.current(video), [onSelect]);
  const filtered =
    filters.range !== null || filters.userIds.length > 0 || filters.lineIds.length > 0;
  const shown = sorted?.slice(paging.from, paging.from + timelinePageSize) ?? [];

  return (
    <aside className="va-timeline" aria-labelledby="va-timeline-title">
      <h2 id="va-timeline-title">{s.timeline}</h2>
      <div className="va-filters">
        <DateRangePicker
          value={filters.range}
          onChange={(range) => onFiltersChange({ ...filters, range })}
          placeholder={s.filterByDateRange}
        />
        <MultiSelect
          label={s.users}
          options={users.map((user) => ({ value: user._id, label: user.name }))}
          value={filters.userIds}
          onChange={(userIds) => onFiltersChange({ ...filters, userIds })}
          placeholder={s.selectUsers}
        />
        <MultiSelect
          label={s.lineClearances}
          options={lineClearances.map((line) => ({ value: line._id, label: line.name }))}
          value={filters.lineIds}
          onChange={(lineIds) => onFiltersChange({ ...filters, lineIds })}
          placeholder={s.selectLineClearances}
        />
        {filtered && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => onFiltersChange(noFilters)}
          >
            {s.clearFilters}
          </button>
        )}
      </div>
      {loading && (
        <p className="muted" role="status">
          {s.loadingVideos}
        </p>
      )}
      {videos && videos.length === 0 && !loading && <p className="muted">{s.noVideos}</p>}
      {sorted && sorted.length > 0 && (
        <PagedList paging={paging} noun={videoMessages.noun}>
          <ol className="va-video-list">
            {shown.map((video) => {
              const id = videoIdOf(video);
              const userId = video.userId ?? video.operatorId;
              return (
                <VideoRow
                  key={id ?? video.filename}
                  video={video}
                  line={
                    (video.lineClearanceId && lineName.get(video.lineClearanceId)) || s.unknownLine
                  }
                  operator={(userId && userName.get(userId)) || s.unknown}
                  selected={id !== null && id === props.selectedId}
                  onSelect={select}
                />
              );
            })}
          </ol>
        </PagedList>
      )}
    </aside>
  );
}
