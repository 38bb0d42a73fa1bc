import { Popover } from 'radix-ui';
import { type KeyboardEvent, useId, useRef } from 'react';
import { selectionLabel, TypeAhead } from '../lib/type-ahead.ts';

export interface MultiSelectOption {
  value: string;
  label: string;
}

export interface MultiSelectProps {
  label: string;
  options: readonly MultiSelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  placeholder: string;
}

/** A checkbox list in a popover (scroll height 200px) with type-ahead, as spec §9 describes. */
export function MultiSelect({ label, options, value, onChange, placeholder }: MultiSelectProps) {
  const listId = useId();
  const typeAhead = useRef(new TypeAhead());
  const list = useRef<HTMLFieldSetElement>(null);
  const selectedLabels = options.filter((o) => value.includes(o.value)).map((o) => o.label);

  const toggle = (optionValue: string, checked: boolean) =>
    onChange(checked ? [...value, optionValue] : value.filter((v) => v !== optionValue));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.key === ' ') return;
    const labels = options.map((option) => option.label);
    const index = typeAhead.current.type(event.key, labels, event.timeStamp);
    if (index >= 0) list.current?.querySelectorAll('input')[index]?.focus();
  };

  return (
    <Popover.Root>
      <Popover.Trigger
        className="picker-trigger"
        aria-label={`${label}: ${selectionLabel(selectedLabels, placeholder)}`}
      >
        {selectedLabels.length ? (
          selectionLabel(selectedLabels, placeholder)
        ) : (
          <span className="placeholder">{placeholder}</span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        {/* Named by its field, as its trigger: opened, it is a dialog with no title. */}
        <Popover.Content aria-label={label} className="popover" align="start" sideOffset={4}>
          <fieldset ref={list} id={listId} className="multi-select-list" onKeyDown={onKeyDown}>
            <legend className="visually-hidden">{label}</legend>
            {options.length === 0 && <p className="muted">No options</p>}
            {options.map((option) => (
              <label key={option.value} className="multi-select-option">
                <input
                  type="checkbox"
                  checked={value.includes(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
