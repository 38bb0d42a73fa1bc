/** Spec §9: typed characters build a search that resets after 500 ms without typing. */
export const typeAheadResetMs = 500;

export class TypeAhead {
  private buffer = '';
  private lastAt = Number.NEGATIVE_INFINITY;

  /** Adds a typed character; returns the index of the first label starting with the search. */
  type(char: string, labels: readonly string[], now: number): number {
    if (now - this.lastAt > typeAheadResetMs) this.buffer = '';
    this.lastAt = now;
    this.buffer += char.toLowerCase();
    return labels.findIndex((label) => label.toLowerCase().startsWith(this.buffer));
  }
}

/** Spec §9: the multi-select's label; past `maxLabels` names it reads '{0} items selected'. */
export function selectionLabel(selected: readonly string[], placeholder: string, maxLabels = 3) {
  if (selected.length === 0) return placeholder;
  if (selected.length > maxLabels)
    return '{0} items selected'.replace('{0}', String(selected.length));
  return selected.join(', ');
}
