import {
  addMonths,
  eachDayOfInterval,
  endOfMonth,
  endOfWeek,
  format,
  isSameDay,
  isSameMonth,
  startOfMonth,
  startOfWeek,
  subMonths,
} from 'date-fns';
import { Popover } from 'radix-ui';
import { type KeyboardEvent, useRef, useState } from 'react';
import { type DateRange, inRange, toDayRange } from '../lib/date-range.ts';

export interface DateRangePickerProps {
  value: DateRange | null;
  onChange: (range: DateRange) => void;
  placeholder: string;
}

const dayFormat = 'MMM d, yyyy';

export function formatRange(range: DateRange): string {
  return `${format(range.start, dayFormat)} – ${format(range.end, dayFormat)}`;
}

/** Two clicks pick a range: the first day, then the last (either order); whole days are kept. */
export function DateRangePicker({ value, onChange, placeholder }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState(() => startOfMonth(value?.start ?? new Date()));
  const [anchor, setAnchor] = useState<Date | null>(null);
  const grid = useRef<HTMLFieldSetElement>(null);

  // Arrow keys move between days (a week up or down), as in a calendar grid.
  const moveFocus = (event: KeyboardEvent) => {
    const step = ({ ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 } as const)[
      event.key as 'ArrowLeft'
    ];
    const days = [...(grid.current?.querySelectorAll<HTMLButtonElement>('.calendar-day') ?? [])];
    const index = days.indexOf(document.activeElement as HTMLButtonElement);
    if (!step || index < 0) return;
    event.preventDefault();
    days[Math.min(Math.max(index + step, 0), days.length - 1)]?.focus();
  };

  const days = eachDayOfInterval({
    start: startOfWeek(startOfMonth(month)),
    end: endOfWeek(endOfMonth(month)),
  });

  const pick = (day: Date) => {
    if (!anchor) {
      setAnchor(day);
      return;
    }
    onChange(toDayRange(anchor, day));
    setAnchor(null);
    setOpen(false);
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setAnchor(null);
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
        <Popover.Content className="popover calendar" align="start" sideOffset={4}>
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
          <p className="calendar-hint">{anchor ? 'Pick the last day' : 'Pick the first day'}</p>
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
}
