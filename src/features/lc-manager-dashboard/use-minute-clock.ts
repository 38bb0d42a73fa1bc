import { useEffect, useState } from 'react';

/**
 * The time now, renewed each minute while mounted: one timer for everything that reads it, so
 * ages measured from it (a card's 'Waiting', 'Overdue') follow the clock in a tab left open.
 */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
