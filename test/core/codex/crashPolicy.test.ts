import { describe, expect, it } from 'vitest';
import { CRASH_WINDOW_MS, CrashHistory, MAX_CRASHES, crashLoopMessage, restartVerdict, type Crash } from '../../../src/main/core/codex/crashPolicy';

const MIN = 60_000;
const crash = (at: number, cause: string | null = null): Crash => ({ at, how: 'signal SIGKILL', cause });

describe('restarting a chat whose Codex died', () => {
  it('allows a restart after one and after two crashes', () => {
    expect(restartVerdict([], 0)).toEqual({ allowed: true });
    expect(restartVerdict([crash(0)], 1)).toEqual({ allowed: true });
    expect(restartVerdict([crash(0), crash(1 * MIN)], 2 * MIN)).toEqual({ allowed: true });
  });

  it('refuses after three crashes within ten minutes, until the oldest leaves the window', () => {
    expect(MAX_CRASHES).toBe(3);
    expect(CRASH_WINDOW_MS).toBe(10 * MIN);
    const crashes = [crash(0), crash(2 * MIN), crash(5 * MIN, 'Error: boom')];
    const v = restartVerdict(crashes, 6 * MIN);
    expect(v).toEqual({ allowed: false, crashes: 3, last: crashes[2], retryAt: 10 * MIN });
    expect(restartVerdict(crashes, 10 * MIN - 1).allowed).toBe(false);
    expect(restartVerdict(crashes, 10 * MIN)).toEqual({ allowed: true });
  });

  it('does not count crashes spread over more than ten minutes', () => {
    expect(restartVerdict([crash(0), crash(6 * MIN), crash(11 * MIN)], 11 * MIN)).toEqual({ allowed: true });
  });

  it('with more crashes than the limit, waits until only two remain in the window', () => {
    const v = restartVerdict([crash(0), crash(1 * MIN), crash(2 * MIN), crash(3 * MIN)], 4 * MIN);
    // The crashes at 0 and 1 min must both leave: at 11 min only those at 2 and 3 min remain.
    expect(v).toMatchObject({ allowed: false, crashes: 4, retryAt: 11 * MIN });
  });

  it('says Codex keeps crashing, with the last cause and when to send again', () => {
    const v = restartVerdict([crash(0), crash(MIN), crash(2 * MIN, 'Error: invalid type\nin `model`')], 2 * MIN);
    if (v.allowed) throw new Error('expected a refusal');
    const text = crashLoopMessage(v);
    expect(text).toMatch(/^Codex keeps crashing: it exited unexpectedly 3 times in 10 minutes/);
    expect(text).toContain('signal SIGKILL, "Error: invalid type in `model`"');
    expect(text).toContain(new Date(10 * MIN).toLocaleTimeString());
    expect(text).toContain('send your message again');
  });

  it('a history answers for the start right after each crash', () => {
    const h = new CrashHistory();
    expect(h.note(crash(0)).allowed).toBe(true);
    expect(h.note(crash(MIN)).allowed).toBe(true);
    expect(h.note(crash(2 * MIN)).allowed).toBe(false);
    expect(h.verdict(10 * MIN).allowed).toBe(true);
    // A crash long after the others starts a new count.
    expect(h.note(crash(30 * MIN)).allowed).toBe(true);
  });
});
