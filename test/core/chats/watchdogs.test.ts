/**
 * The chat's watchdogs (core/chats/watchdogs.ts) on a fake clock: no real timers, time moves only when
 * the test says. Rows: what is armed, how far time moves, which hooks fired.
 */
import { describe, expect, it } from 'vitest';
import { Alarm, MAX_TIMER_MS, Watchdogs, type Clock, type ChatTiming } from '../../../src/main/core/chats/watchdogs';

/** A clock whose time moves by `advance(ms)`, firing the timers due, in order. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout: (fn, ms) => {
      // As Node does: a delay over 2^31 - 1 ms runs after 1 ms (TimeoutOverflowWarning).
      if (ms > 2 ** 31 - 1) ms = 1;
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    now: () => now,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
}

const timing: ChatTiming = { stallMs: 60_000, idleMs: 300_000, ghostApprovalMs: 15_000, interruptGraceMs: 15_000 };

function setup(t: ChatTiming = timing) {
  const clock = fakeClock();
  const fired: string[] = [];
  const dogs = new Watchdogs(t, clock, {
    stallHalf: (ms) => fired.push(`stallHalf ${ms}`),
    stallReset: () => fired.push('stallReset'),
    stallFull: (ms) => fired.push(`stallFull ${ms}`),
    idleExit: () => fired.push('idleExit'),
    ghost: () => fired.push('ghost'),
  });
  return { clock, fired, dogs };
}

interface Row {
  name: string;
  run: (w: ReturnType<typeof setup>) => void;
  fired: string[];
}

const rows: Row[] = [
  {
    name: 'stall: half told, then stopped at full',
    run: ({ dogs, clock }) => (dogs.armStall(true), clock.advance(60_000)),
    fired: ['stallHalf 60000', 'stallFull 60000'],
  },
  {
    name: 'stall: output before half re-arms, nothing fires',
    run: ({ dogs, clock }) => (dogs.armStall(true), clock.advance(29_000), dogs.armStall(true), clock.advance(29_000)),
    fired: [],
  },
  {
    name: 'stall: output after half told resets the activity',
    run: ({ dogs, clock }) => (dogs.armStall(true), clock.advance(30_000), dogs.armStall(true), clock.advance(29_000)),
    fired: ['stallHalf 60000', 'stallReset'],
  },
  { name: 'stall: not eligible (an approval waits) arms nothing', run: ({ dogs, clock }) => (dogs.armStall(false), clock.advance(120_000)), fired: [] },
  { name: 'stall: 0 minutes means never', run: ({ dogs, clock }) => (dogs.armStall(true), clock.advance(10_000_000)), fired: [] },
  { name: 'idle exit after idleMs', run: ({ dogs, clock }) => (dogs.armIdle(true), clock.advance(300_000)), fired: ['idleExit'] },
  {
    name: 'idle exit cleared by new work',
    run: ({ dogs, clock }) => (dogs.armIdle(true), clock.advance(100_000), dogs.clearIdle(), clock.advance(300_000)),
    fired: [],
  },
  { name: 'idle exit not armed without a process', run: ({ dogs, clock }) => (dogs.armIdle(false), clock.advance(300_000)), fired: [] },
  {
    name: 'ghost approval told after ghostApprovalMs, once',
    run: ({ dogs, clock }) => (dogs.watchGhost(true), clock.advance(5_000), dogs.watchGhost(true), clock.advance(10_000)),
    fired: ['ghost'],
  },
  {
    name: 'ghost approval cleared when Codex stops waiting',
    run: ({ dogs, clock }) => (dogs.watchGhost(true), clock.advance(5_000), dogs.watchGhost(false), clock.advance(20_000)),
    fired: [],
  },
  {
    name: 'clearAll stops stall, idle and ghost',
    run: ({ dogs, clock }) => (dogs.armStall(true), dogs.armIdle(true), dogs.watchGhost(true), dogs.clearAll(), clock.advance(1_000_000)),
    fired: [],
  },
];

describe('watchdogs on a fake clock', () => {
  it.each(rows)('$name', (row) => {
    const w = setup(row.name.includes('0 minutes') ? { ...timing, stallMs: 0 } : timing);
    row.run(w);
    expect(w.fired).toEqual(row.fired);
  });

  it('the interrupt grace runs its function after interruptGraceMs unless cleared', () => {
    const { dogs, clock } = setup();
    const ran: string[] = [];
    dogs.armGrace(() => ran.push('grace'));
    clock.advance(14_999);
    expect(ran).toEqual([]);
    clock.advance(1);
    expect(ran).toEqual(['grace']);
    dogs.armGrace(() => ran.push('again'));
    dogs.clearGrace();
    dogs.afterInterrupt(() => ran.push('after'));
    clock.advance(15_000);
    expect(ran).toEqual(['grace', 'after']);
  });

  it('an alarm a month away fires then, not at once: Node cannot wait over 2^31 - 1 ms in one timer', () => {
    const clock = fakeClock();
    const alarm = new Alarm(clock);
    const fired: number[] = [];
    const month = 30 * 24 * 3600_000;
    alarm.set(clock.now() + month, () => fired.push(clock.now()));
    clock.advance(MAX_TIMER_MS);
    expect(fired).toEqual([]);
    clock.advance(month - MAX_TIMER_MS - 1);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([month]);
  });
});
