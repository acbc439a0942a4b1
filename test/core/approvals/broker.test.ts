import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalBroker, MAX_DENY_REASON, type BrokerOptions, type Settlement } from '../../../src/main/core/approvals/broker';
import { memoryAudit, type AuditSink } from '../../../src/main/core/approvals/audit';
import { grantFloor } from '../../../src/main/core/approvals/privateReach';
import { ApprovalRecord } from '../../../src/main/core/approvals/records';
import { classifyServerRequest, type AskRequest } from '../../../src/main/core/codex/serverRequests';
import type { ApprovalView } from '../../../src/shared/contract';
import { AppFailure } from '../../../src/shared/result';

/** The closed places of a profile `p` in `/h/.angelia/workspace/profiles/p` (privateReach.ts). */
const floor = grantFloor({ stateDir: '/h/.angelia', home: '/h', codexHome: '/h/.codex', cwd: '/h/.angelia/workspace/profiles/p', platform: 'linux' });
const ctx = { fileChanges: new Map(), onRequest: true, floor };

function commandAsk(available: unknown[] = ['accept', 'decline', 'cancel']): AskRequest {
  const c = classifyServerRequest(
    'item/commandExecution/requestApproval',
    { threadId: 't', turnId: 'u', itemId: 'i', command: 'rm -rf build/', cwd: '/w', availableDecisions: available },
    ctx,
  );
  if (c.type !== 'ask') throw new Error('expected ask');
  return c;
}

function permissionsAsk(write = ['/Users/me/shared']): AskRequest {
  const c = classifyServerRequest(
    'item/permissions/requestApproval',
    { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions: { fileSystem: { write } } },
    ctx,
  );
  if (c.type !== 'ask') throw new Error('expected ask');
  return c;
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'angelia-broker-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function makeBroker(over: Partial<BrokerOptions> = {}) {
  const audit = memoryAudit();
  const updates: ApprovalView[] = [];
  const broker = new ApprovalBroker({ timeoutMs: 60_000, audit, onUpdate: (v) => updates.push(v), ...over });
  return { broker, audit, updates };
}

/** Whether a promise has settled within a few ticks. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);
}

function failureOf(f: () => unknown): AppFailure {
  try {
    f();
  } catch (e) {
    if (e instanceof AppFailure) return e;
    throw e;
  }
  throw new Error('expected an AppFailure');
}

function readRecord(dir: string, id: string): ApprovalRecord {
  return ApprovalRecord.parse(JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')));
}

describe('approval broker', () => {
  it('two concurrent answers (notification, window) → one settlement, one record write, the second learns the first', async () => {
    const recordDir = tempDir();
    const { broker, audit, updates } = makeBroker({ recordDir });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 12 });
    const settlements: Settlement[] = [];
    void response.then((s) => settlements.push(s));
    const [first, second] = await Promise.all([
      Promise.resolve().then(() => broker.answer(id, 'allow', 'notification')),
      Promise.resolve().then(() => broker.answer(id, 'deny', 'window')),
    ]);
    expect(first).toEqual({ outcome: 'answered', answer: 'allow', by: 'notification' });
    expect(second).toEqual({ outcome: 'already-answered', answer: 'allow', by: 'notification' });
    await expect(response).resolves.toEqual({ wire: { decision: 'accept' }, answer: 'allow', by: 'notification', reason: null, granted: null });
    expect(settlements).toHaveLength(1);
    expect(audit.records.filter((r) => r.event === 'answered')).toHaveLength(1);
    broker.flushDeferred(); // an answer's event and record come one macrotask after it (after Codex's reply)
    expect(updates.map((u) => u.state)).toEqual(['pending', 'answered']);
    expect(readRecord(recordDir, id)).toMatchObject({ state: 'answered', answer: 'allow', by: 'notification', rpcId: 12 });
    expect(broker.pending()).toEqual([]);
  });

  it('[accept, decline, cancel] → answers never include allowForSession; answering it throws bad-answer and writes nothing', async () => {
    const recordDir = tempDir();
    const { broker, audit, updates } = makeBroker({ recordDir });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(['accept', 'decline', 'cancel']), rpcId: 1 });
    expect(broker.pending()[0]?.answers).toEqual(['allow', 'deny', 'cancel']);
    const e = failureOf(() => broker.answer(id, 'allowForSession', 'window'));
    expect(e.app.code).toBe('bad-answer');
    expect(e.message).toMatch(/not offered/);
    expect(await settled(response)).toBe(false);
    expect(audit.records.map((r) => r.event)).toEqual(['requested']);
    expect(updates.map((u) => u.state)).toEqual(['pending']);
    expect(readRecord(recordDir, id).state).toBe('pending');
    expect(broker.pending()).toHaveLength(1);
    // A plain answer still goes through afterwards.
    expect(broker.answer(id, 'cancel', 'window').outcome).toBe('answered');
    await expect(response).resolves.toMatchObject({ wire: { decision: 'cancel' } });
  });

  it('Deny of a permissions request writes exactly {"permissions":{}}', async () => {
    const { broker } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(), rpcId: 61 });
    broker.answer(id, 'deny', 'window');
    const s = await response;
    expect(JSON.stringify(s.wire)).toBe('{"permissions":{}}');
    expect(s).toMatchObject({ answer: 'deny', granted: null });
    expect(broker.all()[0]).toMatchObject({ state: 'answered', granted: null, denyReason: null });
  });

  it('Allow with a subset grants only requested paths, and the view and audit record the grant', async () => {
    const { broker, audit } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(['/a', '/b']), rpcId: 62 });
    const grant = { read: [], write: ['/b'], network: false };
    expect(broker.answer(id, 'allow', 'window', { grant }).outcome).toBe('answered');
    const s = await response;
    expect(s.wire).toEqual({ permissions: { fileSystem: { write: ['/b'] } }, scope: 'turn' });
    expect(s.granted).toEqual(grant);
    expect(broker.all()[0]?.granted).toEqual(grant);
    expect(audit.records.at(-1)).toMatchObject({ event: 'answered', answer: 'allow', by: 'window', grant, reasonTyped: false });
  });

  it('Allow without a grant grants everything asked', async () => {
    const { broker } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(['/a', '/b']), rpcId: 63 });
    broker.answer(id, 'allowForSession', 'tray');
    await expect(response).resolves.toEqual({
      wire: { permissions: { fileSystem: { write: ['/a', '/b'] } }, scope: 'session' },
      answer: 'allowForSession',
      by: 'tray',
      reason: null,
      granted: { read: [], write: ['/a', '/b'], network: false },
    });
  });

  it('a grant path that was not requested throws bad-answer and writes nothing', async () => {
    const recordDir = tempDir();
    const { broker, audit } = makeBroker({ recordDir });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(), rpcId: 64 });
    const e = failureOf(() => broker.answer(id, 'allow', 'window', { grant: { read: [], write: ['/Users/me/shared', '/Users/me/.ssh'], network: false } }));
    expect(e.app).toEqual({
      code: 'bad-answer',
      message: 'the grant goes beyond what was asked: write /Users/me/.ssh was not requested (asked: write /Users/me/shared)',
    });
    expect(failureOf(() => broker.answer(id, 'allow', 'window', { grant: { read: [], write: [], network: true } })).app.code).toBe('bad-answer');
    expect(failureOf(() => broker.answer(id, 'deny', 'window', { grant: { read: [], write: ['/Users/me/shared'], network: false } })).app.code).toBe(
      'bad-answer',
    );
    expect(await settled(response)).toBe(false);
    expect(audit.records.map((r) => r.event)).toEqual(['requested']);
    expect(readRecord(recordDir, id).state).toBe('pending');
  });

  it("a request that also names Angelia's private state: shown refused, Allow (any surface) grants only the rest, an explicit grant of it is refused", async () => {
    const recordDir = tempDir();
    const { broker, audit, updates } = makeBroker({ recordDir });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(['/h/.angelia', '/h/.angelia/api.token', '/out']), rpcId: 65 });
    const refused = [
      { access: 'write', path: '/h/.angelia', why: "Angelia's private state" },
      { access: 'write', path: '/h/.angelia/api.token', why: "Angelia's private state" },
    ];
    expect(updates[0]).toMatchObject({ requested: { read: [], write: ['/out'], network: false }, refused, answers: ['allow', 'allowForSession', 'deny'] });
    expect(updates[0]?.title).toBe('More access: write /out — never granted: write /h/.angelia, write /h/.angelia/api.token');
    expect(audit.records[0]).toMatchObject({ event: 'requested', requested: { write: ['/out'] }, refused });
    expect(readRecord(recordDir, id)).toMatchObject({ refused });
    // No surface can grant it: the window, the API, the CLI and a notification all get bad-answer, and nothing is written.
    for (const by of ['window', 'api', 'cli', 'notification'] as const) {
      const e = failureOf(() => broker.answer(id, 'allowForSession', by, { grant: { read: [], write: ['/out', '/h/.angelia/api.token'], network: false } }));
      expect(e.app.code).toBe('bad-answer');
      expect(e.app.message).toMatch(/^write \/h\/\.angelia\/api\.token \(never granted: Angelia's private state\): Angelia never grants it, whoever answers/);
    }
    expect(await settled(response)).toBe(false);
    expect(audit.records.map((r) => r.event)).toEqual(['requested']);
    // A plain Allow grants what is left, and says so.
    expect(broker.answer(id, 'allow', 'api').outcome).toBe('answered');
    const s = await response;
    expect(s.wire).toEqual({ permissions: { fileSystem: { write: ['/out'] } }, scope: 'turn' });
    expect(JSON.stringify(s.wire)).not.toContain('.angelia');
    expect(s.granted).toEqual({ read: [], write: ['/out'], network: false });
    expect(audit.records.at(-1)).toMatchObject({ event: 'answered', answer: 'allow', by: 'api', grant: { read: [], write: ['/out'], network: false } });
    expect(broker.all()[0]).toMatchObject({ state: 'answered', granted: { write: ['/out'] }, refused });
  });

  it('refuses a grant on a command request', () => {
    const { broker } = makeBroker();
    const { id } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 2 });
    expect(failureOf(() => broker.answer(id, 'allow', 'window', { grant: { read: ['/x'], write: [], network: false } })).app.code).toBe('bad-answer');
    expect(broker.pending()).toHaveLength(1);
  });

  it('Deny with a reason → the wire is decline, the settlement carries the trimmed reason, view and audit keep it', async () => {
    const { broker, audit } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 8 });
    broker.answer(id, 'deny', 'window', { reason: '  use `make clean`\n' });
    await expect(response).resolves.toEqual({ wire: { decision: 'decline' }, answer: 'deny', by: 'window', reason: 'use `make clean`', granted: null });
    expect(broker.all()[0]).toMatchObject({ denyReason: 'use `make clean`', answer: 'deny' });
    expect(audit.records.at(-1)).toMatchObject({ event: 'answered', reasonTyped: true, denyReason: 'use `make clean`' });
  });

  it('a reason only goes with deny or cancel, at most 4000 characters; a blank one counts as none', async () => {
    const { broker } = makeBroker();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 9 });
    expect(failureOf(() => broker.answer(id, 'allow', 'window', { reason: 'fine' })).app.message).toMatch(/only goes with Deny/);
    expect(failureOf(() => broker.answer(id, 'deny', 'window', { reason: 'x'.repeat(MAX_DENY_REASON + 1) })).app.message).toMatch(/at most 4000/);
    expect(broker.answer(id, 'allow', 'window', { reason: '   ' }).outcome).toBe('answered');
    await expect(response).resolves.toMatchObject({ reason: null });

    const b = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 10 });
    broker.answer(b.id, 'cancel', 'api', { reason: ` ${'y'.repeat(MAX_DENY_REASON)} ` });
    await expect(b.response).resolves.toMatchObject({ wire: { decision: 'cancel' }, reason: 'y'.repeat(MAX_DENY_REASON) });
  });

  it('declines when nobody answers in time (by timeout), and records it', async () => {
    vi.useFakeTimers();
    try {
      const { broker, audit } = makeBroker({ timeoutMs: 10 * 60_000 });
      const { response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 3 });
      vi.advanceTimersByTime(10 * 60_000);
      await expect(response).resolves.toEqual({ wire: { decision: 'decline' }, answer: 'deny', by: 'timeout', reason: null, granted: null });
      expect(audit.records.map((r) => r.event)).toEqual(['requested', 'timed-out']);
      expect(broker.all()[0]).toMatchObject({ state: 'timedOut', answer: 'deny', by: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a permissions request that times out gets the empty grant', async () => {
    vi.useFakeTimers();
    try {
      const { broker } = makeBroker({ timeoutMs: 1000 });
      const { response } = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(), rpcId: 4 });
      vi.advanceTimersByTime(1000);
      await expect(response).resolves.toEqual({ wire: { permissions: {} }, answer: 'deny', by: 'timeout', reason: null, granted: null });
    } finally {
      vi.useRealTimers();
    }
  });

  it('still denies on timeout when the audit cannot be written, and reports the failure', async () => {
    vi.useFakeTimers();
    try {
      let broken = false;
      const audit: AuditSink = {
        append: () => {
          if (broken) throw new Error('disk full');
        },
      };
      const errors: unknown[] = [];
      const broker = new ApprovalBroker({ timeoutMs: 1000, audit, onUpdate: () => undefined, onError: (e) => errors.push(e) });
      const { response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 5 });
      broken = true;
      vi.advanceTimersByTime(1000);
      await expect(response).resolves.toMatchObject({ wire: { decision: 'decline' }, by: 'timeout' });
      expect(errors.map(String)).toEqual(['Error: disk full']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer whose audit cannot be written throws and changes nothing', async () => {
    let broken = false;
    const audit: AuditSink = {
      append: () => {
        if (broken) throw new Error('disk full');
      },
    };
    const broker = new ApprovalBroker({ timeoutMs: 60_000, audit, onUpdate: () => undefined });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 6 });
    broken = true;
    expect(() => broker.answer(id, 'allow', 'window')).toThrow('disk full');
    expect(await settled(response)).toBe(false);
    broken = false;
    expect(broker.answer(id, 'allow', 'window').outcome).toBe('answered');
  });

  it('withdraws a request Codex resolved itself and never answers it', async () => {
    const recordDir = tempDir();
    const { broker, updates } = makeBroker({ recordDir });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 7 });
    expect(broker.withdraw((_v, rpcId) => rpcId === 7)).toBe(1);
    expect(broker.answer(id, 'allow', 'window').outcome).toBe('already-answered');
    expect(updates.at(-1)?.state).toBe('withdrawn');
    expect(readRecord(recordDir, id)).toMatchObject({ state: 'withdrawn', by: 'codex' });
    expect(await settled(response)).toBe(false);
  });

  it('accepts a unique id prefix of at least 5 characters; an unknown id is "unknown"', () => {
    const { broker } = makeBroker();
    const { id } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 1 });
    expect(broker.answer(id.slice(0, 4), 'allow', 'cli').outcome).toBe('unknown');
    expect(broker.answer('00000000-0000-0000-0000-000000000000', 'allow', 'cli')).toEqual({ outcome: 'unknown', answer: null, by: null });
    expect(broker.answer(id.slice(0, 8).toUpperCase(), 'allow', 'cli').outcome).toBe('answered');
  });

  it('records: one file per request, mode 600 in a folder of mode 700, updated on answer', async () => {
    const root = tempDir();
    const recordDir = join(root, 'approvals');
    const { broker } = makeBroker({ recordDir, now: () => new Date('2026-01-02T03:04:05.000Z') });
    const a = broker.open({ chatId: 'c', profile: 'p', ask: permissionsAsk(['/a', '/b']), rpcId: 'r-1' });
    const b = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 2 });
    expect(statSync(recordDir).mode & 0o777).toBe(0o700);
    for (const id of [a.id, b.id]) expect(statSync(join(recordDir, `${id}.json`)).mode & 0o777).toBe(0o600);
    expect(readRecord(recordDir, a.id)).toEqual({
      version: 1,
      id: a.id,
      chatId: 'c',
      profile: 'p',
      kind: 'permissions',
      title: 'More access: write /a, /b',
      command: null,
      cwd: null,
      reason: 'need ~/shared',
      changes: [],
      requested: { read: [], write: ['/a', '/b'], network: false },
      answers: ['allow', 'allowForSession', 'deny'],
      createdAt: '2026-01-02T03:04:05.000Z',
      state: 'pending',
      answer: null,
      by: null,
      granted: null,
      denyReason: null,
      rpcId: 'r-1',
      threadId: 't',
      turnId: 'u',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    broker.answer(a.id, 'allow', 'window', { grant: { read: [], write: ['/a'], network: false } });
    broker.answer(b.id, 'deny', 'notification', { reason: 'not now' });
    broker.flushDeferred(); // an answer's record is written one macrotask after it
    expect(readRecord(recordDir, a.id)).toMatchObject({
      state: 'answered',
      answer: 'allow',
      by: 'window',
      granted: { read: [], write: ['/a'], network: false },
    });
    expect(readRecord(recordDir, b.id)).toMatchObject({ state: 'answered', answer: 'deny', by: 'notification', denyReason: 'not now', rpcId: 2 });
    expect(statSync(join(recordDir, `${a.id}.json`)).mode & 0o777).toBe(0o600);
    await Promise.all([a.response, b.response]);
  });

  it('a record that cannot be written does not stop the approval; the failure is reported', async () => {
    const root = tempDir();
    const errors: unknown[] = [];
    // A file where the folder should be: every record write fails.
    const blocker = join(root, 'approvals');
    writeFileSync(blocker, 'x');
    const { broker } = makeBroker({ recordDir: blocker, onError: (e) => errors.push(e) });
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask: commandAsk(), rpcId: 1 });
    broker.answer(id, 'allow', 'window');
    await expect(response).resolves.toMatchObject({ wire: { decision: 'accept' } });
    broker.flushDeferred(); // an answer's record is written one macrotask after it
    expect(errors).toHaveLength(2);
  });
});
