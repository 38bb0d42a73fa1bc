import { useRef } from 'react';

/** A ref that always holds the latest value, for listeners and callbacks registered once. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
