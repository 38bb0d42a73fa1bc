import {
  addDays,
  addMonths,
  type Day,
  eachDayOfInterval,
  endOfDay,
  endOfMonth,
  endOfWeek,
  format,
  isSameDay,
  isSameMonth,
  startOfDay,
  startOfMonth,
  startOfWeek,
  subMonths,
} from 'date-fns';
import { Popover } from 'radix-ui';
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { type DateRange, inRange, toDayRange } from '../lib/date-range.ts';

export interface DateRangePickerProps {
  value: DateRange | null;
  onChange: (range: DateRange) => void;
  placeholder: string;
  /**
   * A visible label above it, as a filter bar's other fields have: words of the trigger's own name
   * ('Filter by date range: …'), which is what a screen reader says, so it is hidden from them.
   */
  label?: string;
}

const dayFormat = 'MMM d, yyyy';
const timeFormat = 'MMM d, yyyy HH:mm';

/**
 * The range in words: its days, or its times where it does not cover whole days here (a link
 * made in another time zone holds that zone's days), so the label never claims a day it cuts.
 */
export function formatRange(range: DateRange): string {
  const wholeDays =
    range.start.getTime() === startOfDay(range.start).getTime() &&
    range.end.getTime() === endOfDay(range.end).getTime();
  const shown = wholeDays ? dayFormat : timeFormat;
  return `${format(range.start, shown)} – ${format(range.end, shown)}`;
}

/**
 * The first day of the week where the browser is (Monday in most of Europe, Sunday in the US),
 * from Intl's week data; Sunday where the browser has none.
 */
function weekStartsOn(): Day {
  try {
    const locale = new Intl.Locale(navigator.language) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const firstDay = (locale.getWeekInfo?.() ?? locale.weekInfo)?.firstDay;
    // Intl counts Monday 1 … Sunday 7; date-fns Sunday 0 … Saturday 6.
    return firstDay ? ((firstDay % 7) as Day) : 0;
  } catch {
    return 0;
  }
}

/** The day grid's first Tab stop in `month`: the range's first day, else today, else the 1st. */
function firstTabDay(month: Date, value: DateRange | null): Date {
  return [value?.start, new Date()].find((day) => day && isSameMonth(day, month)) ?? month;
}

/**
 * Two clicks pick a range: the first day, then the last (either order); whole days are kept. The
 * day grid is one Tab stop (a roving tabindex): opening focuses the range's first day or today,
 * arrow keys move between days (a week up or down) and on into the next or previous month.
 */
export function DateRangePicker({ value, onChange, placeholder, label }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState(() => startOfMonth(value?.start ?? new Date()));
  const [anchor, setAnchor] = useState<Date | null>(null);
  // The day last moved to or picked; outside the shown month, the grid starts from firstTabDay.
  const [activeDay, setActiveDay] = useState<Date | null>(null);
  const tabDay = activeDay && isSameMonth(activeDay, month) ? activeDay : firstTabDay(month, value);
  const grid = useRef<HTMLFieldSetElement>(null);
  const focusTabDay = () =>
    grid.current?.querySelector<HTMLButtonElement>('.calendar-day[tabindex="0"]')?.focus();

  // An arrow key's day may be in another month: it is focused once that month is drawn.
  const arrowMoved = useRef(false);
  useLayoutEffect(() => {
    if (!arrowMoved.current) return;
    arrowMoved.current = false;
    focusTabDay();
  });

  const [firstWeekday] = useState(weekStartsOn);
  const days = eachDayOfInterval({
    start: startOfWeek(startOfMonth(month), { weekStartsOn: firstWeekday }),
    end: endOfWeek(endOfMonth(month), { weekStartsOn: firstWeekday }),
  });

  const moveFocus = (event: KeyboardEvent) => {
    const step = ({ ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 } as const)[
      event.key as 'ArrowLeft'
    ];
    const buttons = [...(grid.current?.querySelectorAll('.calendar-day') ?? [])];
    const from = days[buttons.indexOf(event.target as Element)];
    if (!step || !from) return;
    event.preventDefault();
    const next = addDays(from, step);
    arrowMoved.current = true;
    setActiveDay(next);
    if (!isSameMonth(next, month)) setMonth(startOfMonth(next));
  };

  const pick = (day: Date) => {
    setActiveDay(day);
    if (!anchor) {
      setAnchor(day);
      return;
    }
    onChange(toDayRange(anchor, day));
    setAnchor(null);
    setOpen(false);
  };

  const picker = (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setAnchor(null);
        setActiveDay(null);
      }}
    >
      {/* Named by what it filters, with or without a range: 'Filter by date range: May 1, 2026 –
          May 3, 2026' (the shown range is part of the name). */}
      <Popover.Trigger
        className="picker-trigger"
        aria-label={value ? `${placeholder}: ${formatRange(value)}` : placeholder}
      >
        {value ? formatRange(value) : <span className="placeholder">{placeholder}</span>}
      </Popover.Trigger>
      <Popover.Portal>
        {/* Named by what it filters, as its trigger: opened, it is a dialog with no title. */}
        <Popover.Content
          aria-label={placeholder}
          className="popover calendar"
          align="start"
          sideOffset={4}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            focusTabDay();
          }}
        >
          <div className="calendar-header">
            <button
              type="button"
              className="btn btn-ghost btn-icon"
              aria-label="Previous month"
              onClick={() => setMonth(subMonths(month, 1))}
            >
              ‹
            </button>
            <span className="calendar-month" aria-live="polite">
              {format(month, 'MMMM yyyy')}
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-icon"
              aria-label="Next month"
              onClick={() => setMonth(addMonths(month, 1))}
            >
              ›
            </button>
          </div>
          {/* Said as it changes: after the first pick, the focus stays on the picked day. */}
          <p className="calendar-hint" aria-live="polite">
            {anchor ? 'Pick the last day' : 'Pick the first day'}
          </p>
          <fieldset ref={grid} className="calendar-grid" onKeyDown={moveFocus}>
            <legend className="visually-hidden">{format(month, 'MMMM yyyy')}</legend>
            {days.slice(0, 7).map((day) => (
              <span key={`weekday-${day.getDay()}`} className="calendar-weekday" aria-hidden="true">
                {format(day, 'EEEEEE')}
              </span>
            ))}
            {days.map((day) => {
              const selected = anchor
                ? isSameDay(day, anchor)
                : value !== null && inRange(day, value);
              return (
                <button
                  type="button"
                  key={day.toISOString()}
                  className={`calendar-day${isSameMonth(day, month) ? '' : ' outside'}${selected ? ' selected' : ''}`}
                  aria-label={format(day, 'EEEE, MMMM d, yyyy')}
                  aria-pressed={selected}
                  tabIndex={isSameDay(day, tabDay) ? 0 : -1}
                  onClick={() => pick(day)}
                >
                  {format(day, 'd')}
                </button>
              );
            })}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
  if (!label) return picker;
  return (
    <div className="field">
      <span className="field-label" aria-hidden="true">
        {label}
      </span>
      {picker}
    </div>
  );
}
