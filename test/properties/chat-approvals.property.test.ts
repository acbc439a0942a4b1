/**
 * Property: a chat's turn handling and the approval broker together (core/chats/chat.ts, chatEvents.ts,
 * turn/run.ts, process.ts over the real ApprovalBroker) against a scripted Codex connection (the
 * FakeConn of test/core/chats/fakes.ts, no process), under generated event orders: messages and steers,
 * server requests of every kind (test/properties/requests.ts), answers from every surface (double
 * answers, invalid ones), `serverRequest/resolved`, Stop, turn ends, Codex exits and timeouts (fake
 * timers). After every event and at the end it must hold: every request gets exactly one response
 * (the first answer's) or is withdrawn, none is answered twice or after its withdrawal, none stays
 * pending after its turn ended, the queue stays within `MAX_QUEUE` and a server's open elicitations
 * within `ASK_LIMITS.openPerServer`, and the chat is never busy with nothing running or waiting.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { ApprovalBroker } from '../../src/main/core/approvals/broker';
import { Chat } from '../../src/main/core/chats/chat';
import { MAX_QUEUE } from '../../src/main/core/chats/notices';
import { SessionStore } from '../../src/main/core/chats/sessions';
import { ASK_LIMITS } from '../../src/main/core/codex/askLimits';
import { ModelCatalog } from '../../src/main/core/codex/models';
import { AppFailure } from '../../src/shared/result';
import { baseAnswers, FakeConn, plan } from '../core/chats/fakes';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';
import { answerOp, extrasFor, TEMPLATES, type AnswerOp, type Template } from './requests';
import { fcTimeout, holdsAsync } from './support';

const FILE = 'chat-approvals.property';
const TIMEOUT_MS = 60_000;

type Op =
  | { t: 'send'; steer: boolean }
  | { t: 'stop' }
  | { t: 'request'; template: number }
  | AnswerOp
  | { t: 'resolved'; ref: number }
  | { t: 'turnCompleted'; status: 'completed' | 'interrupted' | 'failed' }
  | { t: 'exit' }
  | { t: 'time'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('send' as const), steer: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'stop' as const }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('request' as const), template: fc.nat({ max: TEMPLATES.length - 1 }) }) },
  { weight: 5, arbitrary: answerOp },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('resolved' as const), ref: fc.nat({ max: 40 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('turnCompleted' as const),
      status: fc.constantFrom('completed' as const, 'interrupted' as const, 'failed' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'exit' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('time' as const), ms: fc.constantFrom(100, 1000, TIMEOUT_MS / 2, TIMEOUT_MS + 1) }) },
);

/** One server request sent, and what came back for it. */
interface Sent {
  rpcId: number;
  template: Template;
  /** The turn running when it came (null: none known). */
  turnId: string | null;
  responses: unknown[];
  errors: unknown[];
}

let dir = '';
let runNo = 0;

/** A fresh chat over fake connections (a new one per Codex start), the broker, the audit and what was sent. */
function setUp() {
  const audit = memoryAudit();
  const broker = new ApprovalBroker({ timeoutMs: TIMEOUT_MS, audit, onUpdate: () => {} });
  const conns: FakeConn[] = [];
  let turns = 0;
  const chat = new Chat({
    chatId: 'c',
    profile: 'p',
    plan: async () => plan,
    startCodex: async () => {
      const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: `turn-${++turns}` } }), 'turn/interrupt': () => ({}) });
      conns.push(conn);
      return conn;
    },
    broker,
    audit,
    sessions: new SessionStore(`${dir}/sessions-${++runNo}.json`),
    emit: () => {},
    timing: { stallMs: 0, idleMs: 0, ghostApprovalMs: 50, interruptGraceMs: 200 },
    models: new ModelCatalog(),
    exportDir: `${dir}/exports`,
    threadHeldElsewhere: () => null,
  });
  return { chat, broker, audit, conns };
}

type World = ReturnType<typeof setUp>;

/** What can still change: compared across event-loop turns to know the chat has settled. */
function fingerprint(w: World): string {
  const v = w.chat.view();
  return JSON.stringify([
    v.state,
    v.queued,
    w.chat.turn,
    w.broker.all().map((a) => a.state),
    w.conns.map((c) => c.calls.length),
    w.chat.transcript.all().length,
  ]);
}

/** Runs the event loop (and timers due now) until nothing changes for two rounds in a row (at most 200 rounds). */
async function settle(w: World): Promise<void> {
  let last = '';
  let same = 0;
  for (let i = 0; i < 200 && same < 2; i++) {
    await new Promise<void>((r) => setImmediate(r));
    vi.advanceTimersByTime(0);
    const now = fingerprint(w);
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

/** The connection the chat runs on now (null: none). */
const current = (w: World): FakeConn | null => w.conns.find((c) => w.chat.isCurrent(c)) ?? null;

/** The approval id the broker gave request `rpcId` (from the audit's `requested` line), or null. */
function approvalOf(w: World, rpcId: number): string | null {
  return w.audit.records.find((r) => r.event === 'requested' && r.rpcId === rpcId)?.approvalId ?? null;
}

async function apply(w: World, o: Op, sent: Sent[], firsts: Map<string, { answer: string; extras: object }>): Promise<void> {
  const conn = current(w);
  switch (o.t) {
    case 'send':
      try {
        w.chat.send(`message ${sent.length}`, { steer: o.steer });
      } catch (e) {
        if (!(e instanceof AppFailure) || e.app.code !== 'queue-full') throw e;
      }
      return;
    case 'stop':
      void w.chat.interrupt();
      return;
    case 'request': {
      if (!conn?.serverRequest) return;
      const template = TEMPLATES[o.template % TEMPLATES.length]!;
      const rpcId = 1000 + sent.length;
      const turnId = w.chat.turn.turnId;
      const s: Sent = { rpcId, template, turnId, responses: [], errors: [] };
      sent.push(s);
      conn.serverRequest(template.method, template.params(w.chat.view().threadId, turnId, rpcId), rpcId).then(
        (r) => s.responses.push(r),
        (e: unknown) => s.errors.push(e),
      );
      return;
    }
    case 'answer': {
      const asked = sent.filter((s) => approvalOf(w, s.rpcId));
      const s = asked[o.ref % Math.max(1, asked.length)];
      if (!s) return;
      const id = approvalOf(w, s.rpcId)!;
      const extras = extrasFor(s.template, o.answer, o.extras);
      try {
        const got = w.broker.answer(o.prefix ? id.slice(0, 6) : id, o.answer, o.by, extras);
        if (got.outcome === 'answered') {
          expect(firsts.has(id), 'a second answer was accepted').toBe(false);
          firsts.set(id, { answer: o.answer, extras });
        } else expect(got.outcome).toBe('already-answered');
      } catch (e) {
        if (!(e instanceof AppFailure) || e.app.code !== 'bad-answer') throw e;
      }
      return;
    }
    case 'resolved': {
      const s = sent[o.ref % Math.max(1, sent.length)];
      if (s && conn) conn.notify('serverRequest/resolved', { threadId: w.chat.view().threadId, requestId: s.rpcId });
      return;
    }
    case 'turnCompleted': {
      const turnId = w.chat.turn.turnId;
      if (conn && turnId) conn.notify('turn/completed', { threadId: w.chat.view().threadId, turn: { id: turnId, status: o.status, error: null } });
      return;
    }
    case 'exit':
      conn?.die(1);
      return;
    case 'time':
      vi.advanceTimersByTime(o.ms);
      return;
  }
}

/** The invariants that hold after every event (see the file comment). */
function check(w: World, sent: Sent[], ended: Set<string>): void {
  const t = w.chat.turn;
  expect(t.queue.length + (t.current ? 1 : 0), 'the queue within its limit').toBeLessThanOrEqual(MAX_QUEUE);
  const pending = w.broker.pending().filter((v) => v.chatId === 'c');
  for (const server of ['vault', 'evil'])
    expect(pending.filter((v) => v.elicitation?.serverName === server).length, `open elicitations of ${server}`).toBeLessThanOrEqual(ASK_LIMITS.openPerServer);
  const view = w.chat.view();
  if (view.state === 'needs-you') expect(pending.length, '"needs you" with nothing to answer').toBeGreaterThan(0);
  // A request may come between turns (an MCP server's elicitation): "needs you" then, with nothing running.
  if (!t.current && !t.queue.length) expect(['working', 'starting'], 'busy with nothing running').not.toContain(view.state);
  for (const s of sent) {
    expect(s.responses.length + s.errors.length, `request ${s.rpcId} answered twice`).toBeLessThanOrEqual(1);
    const id = approvalOf(w, s.rpcId);
    if (!id) continue;
    const v = w.broker.all().find((a) => a.id === id)!;
    if (v.state === 'withdrawn') expect(s.responses, `withdrawn request ${s.rpcId} got a response`).toEqual([]);
    if (s.turnId && ended.has(s.turnId)) expect(v.state, `request ${s.rpcId} pending after its turn ${s.turnId} ended`).not.toBe('pending');
  }
  const answered = w.audit.records.filter((r) => r.event === 'answered' || r.event === 'timed-out').map((r) => r.approvalId);
  expect(new Set(answered).size, 'an approval answered twice').toBe(answered.length);
}

async function run(ops: Op[]): Promise<void> {
  const w = setUp();
  const sent: Sent[] = [];
  const firsts = new Map<string, { answer: string; extras: object }>();
  const ended = new Set<string>();
  try {
    for (const o of ops) {
      const before = w.chat.turn.turnId;
      await apply(w, o, sent, firsts);
      await settle(w);
      if (before && w.chat.turn.turnId !== before) ended.add(before);
      check(w, sent, ended);
    }
    // The end: Codex finishes every turn, then exits; nothing may be left running or waiting.
    for (let i = 0; i < 3 * MAX_QUEUE + 5 && (w.chat.turn.current || w.chat.turn.queue.length); i++) {
      const before = w.chat.turn.turnId;
      await apply(w, { t: 'turnCompleted', status: 'completed' }, sent, firsts);
      await apply(w, { t: 'time', ms: 1000 }, sent, firsts);
      await settle(w);
      if (before && w.chat.turn.turnId !== before) ended.add(before);
      check(w, sent, ended);
    }
    expect(w.chat.turn.current, 'stuck: work still running after Codex ended every turn').toBeNull();
    expect(w.chat.turn.queue, 'stuck: work still queued').toEqual([]);
    current(w)?.die(1);
    await settle(w);
    check(w, sent, ended);
    expect(w.broker.pending(), 'pending after the process exited').toEqual([]);
    for (const s of sent) {
      const id = approvalOf(w, s.rpcId);
      const done = s.responses.length + s.errors.length;
      if (!id) {
        expect(done, `request ${s.rpcId} (${s.template.name}) was lost`).toBe(1);
        continue;
      }
      const v = w.broker.all().find((a) => a.id === id)!;
      if (v.state === 'withdrawn') expect(done, `withdrawn ${s.rpcId} answered`).toBe(0);
      else {
        expect(s.responses, `request ${s.rpcId} (${s.template.name}, ${v.state}) lost`).toHaveLength(1);
        const first = firsts.get(id);
        if (first) expect(v.answer, 'the first answer is in force').toBe(first.answer);
      }
    }
  } finally {
    await w.chat.dispose();
    vi.clearAllTimers();
  }
}

beforeAll(async () => {
  // The sessions file is written (locked, atomically) at every start and turn: on a memory file system
  // when there is one, so a thousand runs take seconds on a loaded machine. No sandbox is probed here.
  dir = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/angelia-chat-property-') : await makeTestDir('chat-approvals-property');
});
afterAll(async () => {
  if (dir) await removeTestDir(dir);
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('property: a chat and the broker under random event orders', () => {
  it(
    'no request lost or answered twice, none pending after its turn, queue bounded, never stuck busy',
    async () => {
      await holdsAsync(
        FILE,
        'chat-approvals-turns',
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => run(ops)),
      );
    },
    fcTimeout(100),
  );
});
