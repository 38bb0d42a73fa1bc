import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
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
 * Where the flag gone to shows beside the player: first in the workspace's main column, inside the
 * part the video's shortcuts serve (VIDEO_WORKSPACE_SELECTOR), so ←, →, Space and F act from it.
 */
const STRIP_COLUMN_SELECTOR = '.report-workspace .va-main';
const STRIP_CLASS = 'report-flag-strip';

/**
 * The strip's element, made first in the workspace's main column (a portal's own content would go
 * last, under the detections), or null while the page shows no player. Looked for after each
 * render: the page renders the panel again when the video, and so the workspace, arrives.
 */
function useStripHost(): HTMLElement | null {
  const [host, setHost] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const column = document.querySelector(STRIP_COLUMN_SELECTOR);
    if (host?.parentElement === column) return;
    if (!column) {
      setHost(null);
      return;
    }
    const made = document.createElement('div');
    made.className = STRIP_CLASS;
    column.prepend(made);
    setHost(made);
  });
  useEffect(() => () => host?.remove(), [host]);
  return host;
}

/**
 * Brings the player into view when it is not (below the fold at 1280 × 900), so the moment a flag
 * moved the clock to is seen: as little as shows it (a visible player stays where it is), below
 * the strip, which sticks under the toolbar, and never so far that a focused control outside the
 * strip (the video, a detection) leaves the screen. Smooth unless the reader asked for reduced
 * motion.
 */
function showPlayer(strip: HTMLElement) {
  const player = document.querySelector(FLAG_PLAYER_SELECTOR)?.getBoundingClientRect();
  if (!player) return;
  // Where the strip sticks (inspection-report.css), else the sticky toolbar's share of the top.
  const stuckAt =
    Number.parseFloat(getComputedStyle(strip).top) ||
    Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) ||
    0;
  const top = stuckAt + strip.getBoundingClientRect().height;
  const bottom = window.innerHeight;
  // As 'nearest' does: an end out of view comes in, unless the player is taller than the view.
  let by = 0;
  if (player.bottom > bottom && player.top > top) {
    by = Math.min(player.bottom - bottom, player.top - top);
  } else if (player.top < top && player.bottom < bottom) {
    by = Math.max(player.top - top, player.bottom - bottom);
  }
  const focused = document.activeElement;
  const kept =
    isTabStop(focused) && !strip.contains(focused) ? focused.getBoundingClientRect() : null;
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

/** The strip's own 'Next flag', named apart from the panel's: the strip says which flag it is at. */
const nextFromStrip = 'Next';

/**
 * Review by exception: the flags, most serious first; 'Next flag' (or F) moves the clock to the
 * next open flag and says which it is. It skips dismissed flags; with none open it stays in the
 * tab order, does nothing and is described by the reason. A flagged detection is confirmed or
 * dismissed at its flag, and at the flag gone to: with a player on the page, in a strip above it
 * (its own Next beside the decision), which takes the focus and sticks under the toolbar while the
 * player shows, so the flag, its decision and the moment it names are seen together.
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
  const statusId = useId();
  const unavailable = open.length === 0;
  const strip = useStripHost();
  const currentFlag = useRef<HTMLFieldSetElement>(null);

  const go = useCallback(
    (index: number) => {
      const flag = flags[index];
      if (!flag) return;
      setVisit({ index, seeks: flag.time !== null });
      if (flag.time !== null) clock.time = flag.time;
    },
    [flags, clock],
  );
  // After the render: the status it fills moves everything below it, the player too.
  useLayoutEffect(() => {
    const item = visit && document.getElementById(`report-flag-${visit.index}`);
    if (!visit || !item) return;
    const shown = currentFlag.current;
    const atPlayer = shown?.closest<HTMLElement>(`.${STRIP_CLASS}`);
    const focused = document.activeElement;
    // A flag with a time shows at the player: the focus goes to the strip (the panel's control
    // would scroll away), unless it is in the workspace already (the strip, the video). The list
    // scrolls on its own: scrolling the page to the flag would take the player away again.
    if (visit.seeks && shown && atPlayer) {
      if (!focused?.closest(VIDEO_WORKSPACE_SELECTOR)) shown.focus({ preventScroll: true });
      revealInList(item);
      showPlayer(atPlayer);
      return;
    }
    // One without a time is read where the reader is: in the strip, stepping from it; else at its
    // item, which takes the focus from no control (the page, its heading) for the next Tab.
    if (atPlayer?.contains(focused)) {
      revealInList(item);
      return;
    }
    if (!isTabStop(focused)) item.querySelector('button')?.focus({ preventScroll: true });
    item.scrollIntoView({ block: 'nearest' });
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
  const nextFlagProps = {
    type: 'button',
    onClick: unavailable ? undefined : next,
    'aria-disabled': unavailable || undefined,
    'aria-describedby': unavailable ? reasonId : undefined,
    'aria-keyshortcuts': shortcuts.on ? 'F' : undefined,
  } as const;
  const keyHint = shortcuts.on ? ' (F)' : '';
  // Kept in the page while empty, so that screen readers announce the first flag gone to.
  const flagGoneTo = (
    <fieldset
      ref={currentFlag}
      className={`report-flag-current${shown ? ' has-flag' : ''}`}
      aria-labelledby={statusId}
      tabIndex={strip ? -1 : undefined}
    >
      <p className="muted" role="status" id={statusId}>
        {status}
      </p>
      {shownDetection && decide(shownDetection, s.currentFlag)}
      {strip && shown && (
        <button className="btn btn-secondary" {...nextFlagProps}>
          {nextFromStrip}
          {keyHint}
        </button>
      )}
    </fieldset>
  );
  return (
    <section className="report-panel report-flags-panel" aria-labelledby="report-flags">
      <div className="report-panel-head">
        <h2 id="report-flags">
          {s.flags} <span className="muted">({flagCount(flags)})</span>
        </h2>
        <button className="btn btn-primary" {...nextFlagProps}>
          {s.nextFlag}
          {keyHint}
        </button>
      </div>
      {flags.length > 0 && unavailable && (
        <p className="muted action-note" id={reasonId}>
          {s.noOpenFlags}
        </p>
      )}
      {strip ? createPortal(flagGoneTo, strip) : flagGoneTo}
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
