/**
 * The time, refreshed every minute while a component is shown, so "resets in …" and "paused until …"
 * stay true without an event.
 */
import { useEffect, useState } from 'react';

/** The current time, re-read every `everyMs` (default one minute). */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
