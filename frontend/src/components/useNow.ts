import { useEffect, useMemo, useState } from 'react';

/**
 * The current time, read again every minute (so day counts roll over while the screen is open)
 * and whenever `key` changes (so a stage started a moment ago is never "in the future").
 */
export function useNow(key: unknown, intervalMs = 60_000): Date {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  // tick and key are not read: they are the reasons to read the clock again.
  return useMemo(() => new Date(), [tick, key]);
}
