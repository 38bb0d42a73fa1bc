import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { getLineClearances } from '../../api/get-line-clearances.ts';
import { getUsers } from '../../api/get-users.ts';
import { getVideo } from '../../api/get-video.ts';
import { BreadcrumbBar } from '../../components/breadcrumb-bar.tsx';
import { formatRange } from '../../components/date-range-picker.tsx';
import {
  createPlaybackClock,
  resetForNewVideo,
} from '../../components/video-review/playback-clock.ts';
import { videoStrings as s, timelineLoadErrors } from '../../components/video-review/strings.ts';
import { VideoWorkspace } from '../../components/video-review/video-workspace.tsx';
import { videoPath } from '../../config/paths.ts';
import { usePageHeading } from '../../hooks/use-heading-focus.ts';
import { videoIdOf } from '../../lib/video.ts';
import type { LineClearance, User, Video } from '../../types/api.ts';
import { getVideos, type VideoFilters } from './api/get-videos.ts';
import { type FetchedVideo, selectionStep } from './video-selection.ts';
import { noFilters, VideoTimeline } from './video-timeline.tsx';
import '../../components/video-review/video-review.css';

/** Spec §8: timeline load failures are raised as these messages and only logged. */
function logFailure(message: string) {
  return (error: unknown) => console.error(message, error);
}

/**
 * Spec §4: videos load once on arrival together with users and line clearances, and again on
 * every filter change. The previous list stays shown while a new one loads.
 */
function useTimelineData(filters: VideoFilters) {
  const [videos, setVideos] = useState<Video[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [users, setUsers] = useState<User[]>([]);
  const [lineClearances, setLineClearances] = useState<LineClearance[]>([]);

  useEffect(() => {
    getUsers().then(setUsers, logFailure(timelineLoadErrors.users));
    getLineClearances().then(setLineClearances, logFailure(timelineLoadErrors.lineClearances));
  }, []);

  useEffect(() => {
    let current = true;
    setLoading(true);
    getVideos(filters)
      .then(
        (list) => {
          if (current) setVideos(list);
        },
        (error: unknown) => {
          logFailure(timelineLoadErrors.videos)(error);
          // An answer is still an answer: the list is empty, the selection rules can run.
          if (current) setVideos((previous) => previous ?? []);
        },
      )
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [filters]);

  return { videos, loading, users, lineClearances };
}

/** Spec §4 selection by the route's videoId; the URL follows (a fallback replaces the entry). */
function useSelectedVideo(videos: readonly Video[] | null, ref: string | null) {
  const [, navigate] = useLocation();
  const [fetched, setFetched] = useState<FetchedVideo | null>(null);
  const step = selectionStep(videos, ref, fetched);

  const fetchId = step.step === 'fetch' ? step.id : null;
  useEffect(() => {
    if (!fetchId) return;
    let current = true;
    getVideo(fetchId).then(
      (video) => {
        if (current) setFetched({ ref: fetchId, video });
      },
      (error: unknown) => {
        console.error(`Video ${fetchId} could not be fetched; showing the first video`, error);
        if (current) setFetched({ ref: fetchId, video: null });
      },
    );
    return () => {
      current = false;
    };
  }, [fetchId]);

  const chosen = step.step === 'select' || step.step === 'fallback' ? step.video : null;
  const chosenId = chosen ? videoIdOf(chosen) : null;
  useEffect(() => {
    if (chosenId && chosenId !== ref) navigate(videoPath(chosenId), { replace: true });
  }, [chosenId, ref, navigate]);

  // The same video arrives as a new object on every reload: keep the first, so nothing that
  // depends on the video (the path player's load) starts again.
  const stable = useRef<Video | null>(null);
  if (!chosen) stable.current = null;
  else if (!stable.current || videoIdOf(stable.current) !== chosenId) stable.current = chosen;
  return {
    video: step.step === 'select' ? stable.current : null,
    // Still deciding: the list or the fetch by id is on its way, or the URL moves to a fallback.
    pending:
      step.step === 'wait' || step.step === 'fetch' || (step.step === 'fallback' && !!chosen),
  };
}

/** The route parameter as written (wouter leaves reserved characters such as %2F encoded). */
function routeRef(param: string | undefined): string | null {
  if (!param) return null;
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}

/** Spec §2 Video Analysis page (/video, /video/{videoId}). */
export default function VideoAnalysisPage() {
  const heading = usePageHeading(s.title);
  const { videoId } = useParams<{ videoId?: string }>();
  const ref = routeRef(videoId);
  const [, navigate] = useLocation();
  const [filters, setFilters] = useState<VideoFilters>(noFilters);
  const timeline = useTimelineData(filters);
  const { video, pending } = useSelectedVideo(timeline.videos, ref);
  const selectedId = video ? videoIdOf(video) : null;

  const [clock] = useState(createPlaybackClock);
  // A layout effect runs before the new video's player and path player subscribe to the clock.
  useLayoutEffect(() => {
    if (selectedId) resetForNewVideo(clock);
  }, [clock, selectedId]);

  const select = (chosen: Video) => {
    const id = videoIdOf(chosen);
    if (id && id !== selectedId) navigate(videoPath(id));
  };

  return (
    <section className="va-page">
      <BreadcrumbBar />
      <header className="va-header">
        <h1 ref={heading} tabIndex={-1}>
          {s.title}
        </h1>
        <p className="muted">{s.subtitle}</p>
      </header>
      <div className="va-layout">
        <VideoTimeline
          videos={timeline.videos}
          loading={timeline.loading}
          users={timeline.users}
          lineClearances={timeline.lineClearances}
          filters={filters}
          onFiltersChange={setFilters}
          selectedId={selectedId}
          onSelect={select}
        />
        {video ? (
          <VideoWorkspace key={selectedId} video={video} clock={clock} />
        ) : (
          <div className="va-main">
            {pending ? (
              <p className="muted" role="status">
                {s.loadingVideos}
              </p>
            ) : (
              <EmptyState
                videoCount={timeline.videos?.length ?? null}
                videoId={ref}
                filters={filters}
              />
            )}
          </div>
        )}
      </div>
    </section>
  );
}

interface EmptyStateProps {
  videoCount: number | null;
  videoId: string | null;
  filters: VideoFilters;
}

/** Spec §2 empty state, with debug lines that tell support why nothing is shown. */
function EmptyState({ videoCount, videoId, filters }: EmptyStateProps) {
  return (
    <div className="va-empty">
      <h2>{s.noVideoSelected}</h2>
      <p>{s.selectVideoHint}</p>
      <ul className="va-debug muted" aria-label="Debug information">
        <li>Videos loaded: {videoCount ?? 'not yet'}</li>
        <li>videoId parameter: {videoId ?? 'none'}</li>
        <li>Date range: {filters.range ? formatRange(filters.range) : 'none'}</li>
        <li>Users filter: {filters.userIds.length ? filters.userIds.join(', ') : 'none'}</li>
        <li>
          Line clearances filter: {filters.lineIds.length ? filters.lineIds.join(', ') : 'none'}
        </li>
      </ul>
    </div>
  );
}
