import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { DateRangePicker } from '../../components/date-range-picker.tsx';
import { MultiSelect } from '../../components/multi-select.tsx';
import { Pager } from '../../components/pager.tsx';
import { cardGridStrings as pageStrings } from '../../components/record-card.tsx';
import { StatusTag } from '../../components/tag.tsx';
import { videoStrings as s } from '../../components/video-review/strings.ts';
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
  const seconds = videoDuration(video);
  return seconds === null || !Number.isFinite(seconds) ? s.unknown : `${Math.round(seconds)} s`;
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
export const timelinePageSize = 50;

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
        <span className="va-video-card-head">
          <span className="va-video-line">{line}</span>
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

/**
 * The page of the list shown: back to 1 when the filters change, and the page of the selected
 * video when the selection changes (a link to /video/{id} shows its card).
 */
function useTimelinePage(
  sorted: readonly Video[] | null,
  filters: VideoFilters,
  selectedId: string | null,
) {
  // No selection seen yet: the first render finds the page of a video selected by the URL.
  const [state, setState] = useState({ page: 1, filters, selectedId: null as string | null });
  let page = state.page;
  if (state.filters !== filters || state.selectedId !== selectedId) {
    if (state.filters !== filters) page = 1;
    if (state.selectedId !== selectedId && selectedId !== null && sorted) {
      const index = sorted.findIndex((video) => videoIdOf(video) === selectedId);
      if (index >= 0) page = Math.floor(index / timelinePageSize) + 1;
    }
    setState({ page, filters, selectedId });
  }
  const pages = Math.max(1, Math.ceil((sorted?.length ?? 0) / timelinePageSize));
  return {
    page: Math.min(page, pages),
    pages,
    go: (to: number) => setState({ page: to, filters, selectedId }),
  };
}

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
  const { page, pages, go } = useTimelinePage(sorted, filters, props.selectedId);
  // The page passes a new onSelect on each render: a stable one keeps the memoised rows as they are.
  const onSelectRef = useRef(props.onSelect);
  useLayoutEffect(() => {
    onSelectRef.current = props.onSelect;
  });
  const select = useCallback((video: Video) => onSelectRef.current(video), []);
  const filtered =
    filters.range !== null || filters.userIds.length > 0 || filters.lineIds.length > 0;
  const from = (page - 1) * timelinePageSize;
  const shown = sorted?.slice(from, from + timelinePageSize) ?? [];

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
        <>
          <p className="muted card-grid-count" aria-live="polite">
            {pages > 1
              ? `${pageStrings.range(from + 1, from + shown.length, sorted.length, s.videoNoun)} · ${pageStrings.page(page, pages)}`
              : pageStrings.count(sorted.length, s.videoNoun)}
          </p>
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
          {pages > 1 && (
            <Pager
              className="card-grid-pager"
              label={pageStrings.pages}
              steps={[
                { label: pageStrings.previous, available: page > 1, onClick: () => go(page - 1) },
                { label: pageStrings.next, available: page < pages, onClick: () => go(page + 1) },
              ]}
            />
          )}
        </>
      )}
    </aside>
  );
}
