/**
 * A slice of the fault-injection runs in `npm test` (the twenty seeded runs are test/reliability/kill.test.ts,
 * run by `npm run reliability`): Codex killed with SIGKILL by pid while an approval waits and while the answer
 * streams (a session's first turn: first-turn-crash.test.ts). Each run checks what test/reliability/killHarness.ts lists: the
 * turn fails with its cause, approvals withdrawn, no process of the chat left, the next message works, no
 * prompt reaches the model twice.
 */
import { describe, expect, it } from 'vitest';
import { killRun, type KillPoint } from '../reliability/killHarness';

const POINTS: KillPoint[] = ['approval', 'mid-stream'];

describe('Codex killed with SIGKILL (a slice of npm run reliability)', () => {
  POINTS.forEach((point, n) => {
    it(`kill -9 at ${point}: the turn fails with its cause and the chat goes on`, async () => {
      const r = await killRun(n + 1, point);
      expect(r).toMatchObject({ point, approvalsPending: 0, processesLeft: 0 });
      expect(r.maxDeliveries).toBeLessThanOrEqual(1);
    }, 400_000);
  });
});
