// Order statistics for benchmark samples.

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** 25th and 75th percentiles. */
  q1: number;
  q3: number;
  samples: number;
}

/** Quantile q ∈ [0, 1] with linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of an empty sample');
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile must be within [0, 1], got ${q}`);
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function spread(values: readonly number[]): Spread {
  return {
    median: quantile(values, 0.5),
    min: Math.min(...values),
    max: Math.max(...values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    samples: values.length,
  };
}
