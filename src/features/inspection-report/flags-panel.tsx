import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { PlaybackClock } from '../../components/video-review/playback-clock.ts';
import {
  keyOwnedByTarget,
  shortcutAllowed,
  VIDEO_WORKSPACE_SELECTOR,
} from '../../components/video-review/shortcuts.ts';
import { keyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import type { Flag, InspectionReport, ReportDetection } from '../../types/api.ts';
import { DismissalDialog, DispositionButtons } from './disposition-controls.tsx';
import { reportStrings as s } from './strings.ts';
import { useDisposition } from './use-disposition.ts';

/** A flagged detection's disposition, as the flag shows it (a dismissed one is closed). */
const decisionLabel = { confirmed: 'Confirmed finding', dismissed: 'Dismissed' } as const;

/** The 'next flag' key (beside the video page's shortcuts, which leave F free). */
export const NEXT_FLAG_KEY = 'f';

/** Where F acts: this panel and the player it drives (or no control), as the video's own keys. */
const nextFlagScope = `.report-flags-panel, ${VIDEO_WORKSPACE_SELECTOR}`;

export interface FlagsPanelProps {
  /** Its flags, and the detections a flag's decision is taken on (as the dispositions table does). */
  report: InspectionReport;
  clock: PlaybackClock;
  /** After a decision taken at a flag: the report reloads. */
  onChanged(): void;
}

/** '20', or '19 open, 1 dismissed': /reports counts only the open ones. */
export function flagCount(flags: readonly Flag[]): string {
  const dismissed = flags.filter((flag) => flag.decision === 'dismissed').length;
  return dismissed ? `${flags.length - dismissed} open, ${dismissed} dismissed` : `${flags.length}`;
}

/**
 * Where a flag's time shows: the report's video and path player (inspection-report-page.tsx mounts
 * the shared workspace in `.report-workspace`). Found in the document, as the page owns it.
 */
export const FLAG_PLAYER_SELECTOR = '.report-workspace .va-media';

/** A control in the Tab order: not the page, nor a heading focused (tabIndex -1) as it opened. */
function isTabStop(element: Element | null): element is HTMLElement {
  return element instanceof HTMLElement && element.tabIndex >= 0;
}

/**
 * Brings the player into view when it is not (below the fold at 1280 × 900), so the moment a flag
 * moved the clock to is seen: as little as shows it (a visible player stays where it is), and never
 * so far that the focused control (Next flag, a flag of the list) leaves the screen: a keyboard
 * user was left pressing a button they could not see. Smooth unless the reader asked for reduced
 * motion.
 */
function showPlayer() {
  const player = document.querySelector(FLAG_PLAYER_SELECTOR)?.getBoundingClientRect();
  if (!player) return;
  // The sticky toolbar's share of the top (styles/app.css).
  const top = Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const bottom = window.innerHeight;
  // As 'nearest' does: an end out of view comes in, unless the player is taller than the view.
  let by = 0;
  if (player.bottom > bottom && player.top > top) {
    by = Math.min(player.bottom - bottom, player.top - top);
  } else if (player.top < top && player.bottom < bottom) {
    by = Math.max(player.top - top, player.bottom - bottom);
  }
  const focused = document.activeElement;
  const kept = isTabStop(focused) ? focused.getBoundingClientRect() : null;
  if (kept && kept.bottom > top && kept.top < bottom) {
    by = Math.min(Math.max(by, kept.bottom - bottom), kept.top - top);
  }
  if (by === 0) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollBy({ top: by, behavior: reduced ? 'auto' : 'smooth' });
}

/** Scrolls the flag list itself, not the page, so the item shows in it (the list scrolls past 18rem). */
function revealInList(item: HTMLElement) {
  const list = item.parentElement;
  if (!list) return;
  const itemBox = item.getBoundingClientRect();
  const listBox = list.getBoundingClientRect();
  if (itemBox.top < listBox.top) list.scrollTop -= listBox.top - itemBox.top;
  else if (itemBox.bottom > listBox.bottom) list.scrollTop += itemBox.bottom - listBox.bottom;
}

/** Flags whose text already names their time ('Detection: debris 81% at 8.87 s', a gap's 'from'). */
const timeInText: ReadonlySet<Flag['kind']> = new Set(['detection', 'gap', 'replaced-finding']);

/**
 * The time beside a flag, where 'Next flag' goes, unless its text already says it (null then, and
 * for a flag without a time): a missed zone or tag has no time of its own, so the path's closest
 * approach.
 */
export function flagTimeText(flag: Flag): string | null {
  if (flag.time === null || timeInText.has(flag.kind)) return null;
  const closest = flag.kind === 'zone' || flag.kind === 'tag' ? 'closest at ' : '';
  return `${closest}${flag.time.toFixed(2)} s`;
}

/** The indexes of the open flags, in list order: a dismissed detection's flag is closed. */
export function openFlagIndexes(flags: readonly Flag[]): number[] {
  return flags.flatMap((flag, index) => (flag.decision === 'dismissed' ? [] : [index]));
}

/** Where 'Next flag' goes from the flag at `current`: the next open one, wrapping; -1 if none. */
export function nextOpenFlag(open: readonly number[], current: number): number {
  return open.find((index) => index > current) ?? open[0] ?? -1;
}

function FlagTime({ flag }: { flag: Flag }) {
  const time = flagTimeText(flag);
  return time ? <span className="muted">{time}</span> : null;
}

/**
 * Review by exception: the flags, most serious first; 'Next flag' (or F) moves the clock to the
 * next open flag, brings the player into view and says which it is. It skips dismissed flags; with
 * none open it stays in the tab order, does nothing and is described by the reason. A flagged
 * detection is confirmed or dismissed at its flag, and at the flag gone to, beside 'Next flag'.
 */
export function FlagsPanel({ report, clock, onChanged }: FlagsPanelProps) {
  const { flags } = report;
  const shortcuts = useSnapshot(keyboardShortcuts);
  const dispositions = useDisposition(report, onChanged);
  const detections = useMemo(
    () => new Map(report.detections.map((detection) => [detection.predictionId, detection])),
    [report.detections],
  );
  // A detection's flag names it by its prediction id; the decision sent names the one it shows.
  const detectionOf = (flag: Flag | undefined) =>
    flag?.kind === 'detection' && flag.ref !== null ? detections.get(flag.ref) : undefined;
  // The flag last gone to, a new object each time (going to the same flag again scrolls again).
  const [visit, setVisit] = useState<{ index: number; seeks: boolean } | null>(null);
  const current = visit?.index ?? -1;
  const open = useMemo(() => openFlagIndexes(flags), [flags]);
  const reasonId = useId();
  const unavailable = open.length === 0;

  const go = useCallback(
    (index: number) => {
      const flag = flags[index];
      if (!flag) return;
      setVisit({ index, seeks: flag.time !== null });
      if (flag.time !== null) clock.time = flag.time;
    },
    [flags, clock],
  );
  // After the render: the status line it fills moves everything below it, the player too. A flag
  // with a time shows the player, and the list scrolls on its own (scrolling the page to the flag
  // would take the player away again); one without shows the flag.
  useLayoutEffect(() => {
    const item = visit && document.getElementById(`report-flag-${visit.index}`);
    if (!visit || !item) return;
    // F pressed on no control (the page, its heading): the focus goes where the flag shows, the
    // video or else the flag's item, so the next Tab goes on from there, not from the page's top.
    if (!isTabStop(document.activeElement)) {
      const video = visit.seeks && document.querySelector(`${FLAG_PLAYER_SELECTOR} video`);
      const target = video || item.querySelector('button');
      if (target instanceof HTMLElement) target.focus({ preventScroll: true });
    }
    if (!visit.seeks) {
      item.scrollIntoView({ block: 'nearest' });
      return;
    }
    revealInList(item);
    showPlayer();
  }, [visit]);
  const next = useCallback(() => go(nextOpenFlag(open, current)), [go, open, current]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key.toLowerCase() !== NEXT_FLAG_KEY ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey
      ) {
        return;
      }
      if (keyOwnedByTarget(event.target, event.key) || unavailable) return;
      if (!shortcutAllowed(event.target, nextFlagScope)) return;
      event.preventDefault();
      next();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [next, unavailable]);

  const shown = flags[current];
  const position = open.indexOf(current);
  let status = '';
  if (shown && position >= 0) status = s.openFlag(position + 1, open.length, shown.text);
  else if (shown) status = s.dismissedFlag(shown.text);
  const shownDetection = detectionOf(shown);
  const decide = (detection: ReportDetection, subject: string) => (
    <DispositionButtons dispositions={dispositions} detection={detection} subject={subject} />
  );
  return (
    <section className="report-panel report-flags-panel" aria-labelledby="report-flags">
      <div className="report-panel-head">
        <h2 id="report-flags">
          {s.flags} <span className="muted">({flagCount(flags)})</span>
        </h2>
        <button
          type="button"
          className="btn btn-primary"
          onClick={unavailable ? undefined : next}
          aria-disabled={unavailable || undefined}
          aria-describedby={unavailable ? reasonId : undefined}
          aria-keyshortcuts={shortcuts.on ? 'F' : undefined}
        >
          {shortcuts.on ? `${s.nextFlag} (F)` : s.nextFlag}
        </button>
      </div>
      {flags.length > 0 && unavailable && (
        <p className="muted action-note" id={reasonId}>
          {s.noOpenFlags}
        </p>
      )}
      <div className="report-flag-current">
        <p className="muted" role="status">
          {status}
        </p>
        {shownDetection && decide(shownDetection, s.currentFlag)}
      </div>
      {flags.length === 0 ? (
        <p id={reasonId}>{s.noFlags}</p>
      ) : (
        <ol className="report-flags">
          {flags.map((flag, index) => {
            const detection = detectionOf(flag);
            return (
              <li
                key={`${flag.kind}-${flag.ref ?? index}-${flag.time ?? ''}`}
                id={`report-flag-${index}`}
              >
                <button
                  type="button"
                  className={`report-flag severity-${flag.severity}${flag.decision === 'dismissed' ? ' is-dismissed' : ''}`}
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => go(index)}
                >
                  <span className="report-flag-severity">{flag.severity}</span>
                  <span>{flag.text}</span>
                  {flag.decision && (
                    <span className="report-flag-decision">{decisionLabel[flag.decision]}</span>
                  )}
                  <FlagTime flag={flag} />
                </button>
                {detection && decide(detection, flag.text)}
              </li>
            );
          })}
        </ol>
      )}
      <DismissalDialog dispositions={dispositions} />
    </section>
  );
}
