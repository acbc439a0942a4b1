/**
 * Property: the approval broker (core/approvals/broker.ts) under random interleavings of requests of
 * every kind, answers from every surface (double answers, by id prefix, invalid ones), Codex's
 * `serverRequest/resolved`, turn ends and timeouts. Checked against a model: the first accepted answer
 * (or the timeout) wins and settles the request exactly once with that answer's wire; later answers get
 * `already-answered` with the answer in force; a withdrawn request is never answered; nothing stays
 * pending after its turn ended; the pending list is the model's. docs/architecture.md flow (c).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { ApprovalBroker, type AnswerOptions, type Settlement } from '../../src/main/core/approvals/broker';
import { grantFloor } from '../../src/main/core/approvals/privateReach';
import type { AskRequest } from '../../src/main/core/codex/askRequest';
import { classifyServerRequest } from '../../src/main/core/codex/serverRequests';
import type { AnswerOutcome, ApprovalAnswer } from '../../src/shared/contract';
import { AppFailure } from '../../src/shared/result';
import { answerOp, extrasFor, TEMPLATES, type AnswerOp, type Template } from './requests';
import { fcTimeout, holdsAsync } from './support';

const FILE = 'broker.property';
const TIMEOUT_MS = 60_000;
const floor = grantFloor({ stateDir: '/w/.angelia', home: '/w/home', codexHome: '/w/home/.codex', cwd: '/w', platform: 'linux' });
const ASKING = TEMPLATES.filter((t) => t.asks);

type Op = { t: 'open'; template: number } | AnswerOp | { t: 'resolved'; ref: number } | { t: 'turnEnds' } | { t: 'time'; ms: number } | { t: 'flush' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('open' as const), template: fc.nat({ max: ASKING.length - 1 }) }) },
  { weight: 6, arbitrary: answerOp },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('resolved' as const), ref: fc.nat({ max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'turnEnds' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('time' as const), ms: fc.constantFrom(TIMEOUT_MS / 3, TIMEOUT_MS / 2, TIMEOUT_MS + 1) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'flush' as const }) },
);

/** What the model knows of one request. */
interface Req {
  id: string;
  rpcId: number;
  ask: AskRequest;
  template: Template;
  openedAt: number;
  /** The winner: the first accepted answer (or the timeout's), or `withdrawn`; null while pending. */
  outcome: { answer: ApprovalAnswer; by: string; extras: AnswerOptions } | 'withdrawn' | null;
  /** Why the broker was told to withdraw it (set with outcome 'withdrawn'). */
  withdrawnWhy?: string;
  settlements: Settlement[];
}

function askOf(t: Template, n: number): AskRequest {
  const c = classifyServerRequest(t.method, t.params('thread-1', 'turn-1', n), { fileChanges: new Map(), onRequest: true, floor });
  if (c.type !== 'ask') throw new Error(`${t.name} was not asked`);
  return c;
}

async function run(ops: Op[]): Promise<void> {
  const audit = memoryAudit();
  const broker = new ApprovalBroker({ timeoutMs: TIMEOUT_MS, audit, onUpdate: () => {} });
  const reqs: Req[] = [];
  let clock = 0;
  const pick = (ref: number): Req | undefined => reqs[ref % Math.max(1, reqs.length)];
  for (const o of [...ops, { t: 'turnEnds' as const }]) {
    switch (o.t) {
      case 'open': {
        const template = ASKING[o.template % ASKING.length]!;
        const ask = askOf(template, reqs.length);
        const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: reqs.length });
        const r: Req = { id, rpcId: reqs.length, ask, template, openedAt: clock, outcome: null, settlements: [] };
        void response.then((s) => r.settlements.push(s));
        reqs.push(r);
        break;
      }
      case 'answer': {
        const r = pick(o.ref);
        if (!r) {
          expect(broker.answer('00000000', o.answer, o.by)).toEqual({ outcome: 'unknown', answer: null, by: null });
          break;
        }
        const extras = extrasFor(r.template, o.answer, o.extras);
        let got: AnswerOutcome | AppFailure;
        try {
          got = broker.answer(o.prefix ? r.id.slice(0, 8).toUpperCase() : r.id, o.answer, o.by, extras);
        } catch (e) {
          if (!(e instanceof AppFailure)) throw e;
          got = e;
        }
        if (r.outcome === null) {
          if (got instanceof AppFailure) expect(got.app.code).toBe('bad-answer');
          else {
            expect(got).toEqual({ outcome: 'answered', answer: o.answer, by: o.by });
            r.outcome = { answer: o.answer, by: o.by, extras };
          }
        } else {
          // A late answer to a withdrawn request says when (the broker's clock, an ISO time) and why.
          const inForce =
            r.outcome === 'withdrawn'
              ? { answer: null, by: 'codex', withdrawn: { at: expect.any(String) as unknown, why: r.withdrawnWhy } }
              : { answer: r.outcome.answer, by: r.outcome.by };
          expect(got).toEqual({ outcome: 'already-answered', ...inForce });
        }
        break;
      }
      case 'resolved': {
        const r = pick(o.ref);
        if (!r) break;
        const n = broker.withdraw((_v, rpcId) => rpcId === r.rpcId, 'Codex closed the request');
        expect(n).toBe(r.outcome === null ? 1 : 0);
        if (r.outcome === null) Object.assign(r, { outcome: 'withdrawn', withdrawnWhy: 'Codex closed the request' });
        break;
      }
      case 'turnEnds': {
        const open = reqs.filter((r) => r.outcome === null);
        expect(broker.withdraw((v) => v.chatId === 'c' && v.state === 'pending', 'the turn ended')).toBe(open.length);
        for (const r of open) Object.assign(r, { outcome: 'withdrawn', withdrawnWhy: 'the turn ended' });
        break;
      }
      case 'time': {
        clock += o.ms;
        vi.advanceTimersByTime(o.ms);
        for (const r of reqs)
          if (r.outcome === null && r.openedAt + TIMEOUT_MS <= clock) r.outcome = { answer: r.ask.timeoutAnswer, by: 'timeout', extras: {} };
        break;
      }
      case 'flush':
        broker.flushDeferred();
        break;
    }
    expect(broker.pending().map((v) => v.id)).toEqual(reqs.filter((r) => r.outcome === null).map((r) => r.id));
  }
  broker.flushDeferred();
  await Promise.resolve();
  for (const r of reqs) {
    const lines = audit.records.filter((a) => a.approvalId === r.id);
    const answered = lines.filter((a) => a.event === 'answered' || a.event === 'timed-out');
    expect(r.outcome, 'nothing left pending after the turn ended').not.toBeNull();
    if (r.outcome === 'withdrawn') {
      expect(r.settlements, 'a withdrawn request is never answered').toEqual([]);
      expect(answered).toEqual([]);
      expect(lines.filter((a) => a.event === 'withdrawn')).toHaveLength(1);
    } else if (r.outcome) {
      expect(r.settlements, 'answered exactly once').toHaveLength(1);
      expect(answered).toHaveLength(1);
      const s = r.settlements[0]!;
      expect({ answer: s.answer, by: s.by }).toEqual({ answer: r.outcome.answer, by: r.outcome.by });
      expect(s.wire, 'the first answer is what Codex gets').toEqual(r.ask.toWire(r.outcome.answer, wireExtras(r.outcome.extras)));
    }
    expect(broker.all().find((v) => v.id === r.id)?.state).toBe(
      r.outcome === 'withdrawn' ? 'withdrawn' : r.outcome?.by === 'timeout' ? 'timedOut' : 'answered',
    );
  }
}

/** The extras `toWire` takes (the reason is the broker's, not the wire's). */
function wireExtras(o: AnswerOptions): AnswerOptions {
  const { reason: _reason, ...rest } = o;
  return rest;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('property: the approval broker', () => {
  it(
    'first answer wins, exactly one response or a withdrawal per request, none pending after the turn',
    async () => {
      await holdsAsync(
        FILE,
        'broker-first-answer-wins',
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
          try {
            await run(ops);
          } finally {
            vi.clearAllTimers();
          }
        }),
      );
    },
    fcTimeout(30),
  );
});
