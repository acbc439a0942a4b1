/**
 * A late answer to a request Codex withdrew says so, with when and why, on every surface: the shared text
 * (withdrawnText.ts), the broker's outcome, the loopback API's 409 (which `angelia` commands print), the
 * tray and notification text, and the window's card note.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/shared/contract';
import { withdrawnText } from '../../src/shared/withdrawnText';
import { ApprovalBroker } from '../../src/main/core/approvals/broker';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { permissionRoute } from '../../src/main/api/resources/approvals';
import type { RouteContext } from '../../src/main/api/routeKit';
import { outcomeNotice } from '../../src/main/electron/text';
import { outcomeNote } from '../../src/renderer/src/features/approvals/describe';
import { ApiError } from '../../src/main/api/errors';
import { commandAsk } from '../electron/fakes';

describe('withdrawnText', () => {
  it.each([
    [
      { at: '2026-12-02T03:40:12.345Z', why: 'Codex exited (signal SIGKILL)' },
      'Codex withdrew this request at 2026-12-02 03:40:12 UTC (Codex exited (signal SIGKILL)); nothing was answered, and your answer was not sent.',
    ],
    [
      { at: '2026-12-02T03:40:12.345Z', why: null },
      'Codex withdrew this request at 2026-12-02 03:40:12 UTC; nothing was answered, and your answer was not sent.',
    ],
    [{ at: null, why: 'the turn ended' }, 'Codex withdrew this request (the turn ended); nothing was answered, and your answer was not sent.'],
    [undefined, 'Codex withdrew this request; nothing was answered, and your answer was not sent.'],
  ])('%j', (withdrawn, text) => {
    expect(withdrawnText(withdrawn)).toBe(text);
  });
});

/** A broker holding one command request that Codex withdrew (`why`) at a fixed time. */
function withdrawnBroker(why: string) {
  const broker = new ApprovalBroker({ timeoutMs: 60_000, audit: memoryAudit(), onUpdate: () => {}, now: () => new Date('2026-12-02T03:40:12.000Z') });
  const { id } = broker.open({
    chatId: 'c',
    profile: 'p',
    rpcId: 7,
    ask: commandAsk(),
  });
  broker.withdraw((_v, rpcId) => rpcId === 7, why);
  return { broker, id };
}

describe('a late answer to a withdrawn request', () => {
  it('the broker says when and why Codex withdrew it', () => {
    const { broker, id } = withdrawnBroker('the turn ended');
    expect(broker.answer(id, 'allow', 'window')).toEqual({
      outcome: 'already-answered',
      answer: null,
      by: 'codex',
      withdrawn: { at: '2026-12-02T03:40:12.000Z', why: 'the turn ended' },
    });
  });

  it('every surface says Codex withdrew it, never "already answered (?, by codex)"', async () => {
    const { broker, id } = withdrawnBroker('Codex exited (signal SIGKILL)');
    const expected =
      'Codex withdrew this request at 2026-12-02 03:40:12 UTC (Codex exited (signal SIGKILL)); nothing was answered, and your answer was not sent.';
    const outcome = broker.answer(id, 'deny', 'tray');
    expect(outcomeNotice(outcome)).toBe(expected);
    expect(outcomeNote(outcome, 'command')).toBe(expected);
    const core = {
      approvals: async (): Promise<ApprovalView[]> => broker.all(),
      answer: async (i: string, a: 'allow' | 'deny') => broker.answer(i, a, 'api'),
    };
    const ctx = { body: { id, allow: true }, deps: { core } } as unknown as RouteContext<never, never>;
    const err = await permissionRoute.handle(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'not-waiting', message: expected });
  });
});
