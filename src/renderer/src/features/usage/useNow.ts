/**
 * The time, for "resets in …" and "paused until …": read when the component renders (so numbers that
 * just arrived are dated against the time they are shown, not the time the component mounted), and the
 * component is rendered again every minute so the words stay true without an event.
 */
import { useEffect, useState } from 'react';

/** The current time at this render; the component re-renders every `everyMs` (default one minute). */
export function useNow(everyMs = 60_000): Date {
  const [, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return new Date();
}
