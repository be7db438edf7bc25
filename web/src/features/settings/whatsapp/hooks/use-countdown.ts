import { useEffect, useState } from 'react';

/** Returns the whole seconds left until `deadline` (ms since the epoch), at least 0. */
export const secondsUntil = (deadline: number, now: number) => Math.max(0, Math.ceil((deadline - now) / 1000));

/**
 * Returns the seconds left until `deadline` (ms since the epoch; null for none), drawn again every
 * second until it reaches 0. The clock is read while drawing, so a new deadline counts from now.
 */
export function useCountdown(deadline: number | null): number {
  const [, setTick] = useState(0);
  const left = deadline === null ? 0 : secondsUntil(deadline, Date.now());

  useEffect(() => {
    if (deadline === null || Date.now() >= deadline) return;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  return left;
}
