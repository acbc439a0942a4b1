import { describe, expect, it, vi } from 'vitest';
import { ApprovalBroker } from '../../../src/main/core/approvals/broker';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { classifyServerRequest, type AskRequest } from '../../../src/main/core/codex/serverRequests';
import type { ApprovalView } from '../../../src/shared/contract';

function commandAsk(available: unknown[] = ['accept', 'decline', 'cancel']): AskRequest {
  const c = classifyServerRequest('item/commandExecution/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', command: 'rm -rf build/', cwd: '/w', availableDecisions: available }, { fileChanges: new Map(), onRequest: true });
  if (c.type !== 'ask') throw new Error('expected ask');
  return c;
}

function makeBroker(timeoutMs = 60_000) {
  const audit = memoryAudit();
  const updates: ApprovalView[] = [];
  const broker = new ApprovalBroker({ timeoutMs, audit, onUpdate: (v) => updates.push(v) });
  return { broker, audit, updates };
}

describe('approval broker', () => {
  it('writes exactly one response when two surfaces answer at once (B06)', async () => {
    const { broker } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 12 });
    const first = broker.answer(id, 'allow', 'notification');
    const second = broker.answer(id, 'deny', 'window');
    expect(first).toEqual({ outcome: 'answered', answer: 'allow', by: 'notification' });
    expect(second).toEqual({ outcome: 'already-answered', answer: 'allow', by: 'notification' });
    await expect(response).resolves.toEqual({ decision: 'accept' });
    expect(broker.pending()).toEqual([]);
  });

  it('refuses an answer the request did not offer (B04)', () => {
    const { broker } = makeBroker();
    const { id } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(['accept', 'cancel']), rpcId: 1 });
    expect(() => broker.answer(id, 'allowForSession', 'window')).toThrow(/not offered/);
    expect(broker.pending()).toHaveLength(1);
  });

  it('declines when nobody answers in time, and records it', async () => {
    vi.useFakeTimers();
    try {
      const { broker, audit } = makeBroker(10 * 60_000);
      const { response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 3 });
      vi.advanceTimersByTime(10 * 60_000);
      await expect(response).resolves.toEqual({ decision: 'decline' });
      expect(audit.records.map((r) => r.event)).toEqual(['requested', 'timed-out']);
      expect(broker.all()[0]?.state).toBe('timedOut');
    } finally {
      vi.useRealTimers();
    }
  });

  it('withdraws a request Codex resolved itself and never answers it', async () => {
    const { broker, updates } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 7 });
    expect(broker.withdraw((_v, rpcId) => rpcId === 7)).toBe(1);
    expect(broker.answer(id, 'allow', 'window').outcome).toBe('already-answered');
    expect(updates.at(-1)?.state).toBe('withdrawn');
    const raced = await Promise.race([response.then(() => 'answered'), new Promise((r) => setTimeout(() => r('pending'), 30))]);
    expect(raced).toBe('pending');
  });

  it('accepts a unique id prefix of at least 5 characters', () => {
    const { broker } = makeBroker();
    const { id } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 1 });
    expect(broker.answer(id.slice(0, 4), 'allow', 'cli').outcome).toBe('unknown');
    expect(broker.answer(id.slice(0, 8).toUpperCase(), 'allow', 'cli').outcome).toBe('answered');
  });
});
