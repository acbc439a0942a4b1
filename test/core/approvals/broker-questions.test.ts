import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { ApprovalBroker, type BrokerOptions } from '../../../src/main/core/approvals/broker';
import type { AskRequest } from '../../../src/main/core/codex/askRequest';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';
import { SECRET_MASK, type ApprovalView } from '../../../src/shared/contract';
import { AppFailure } from '../../../src/shared/result';

const SECRET = 'hunter2-do-not-log';
const ctx = { fileChanges: new Map(), onRequest: true };

function classified(method: string, params: unknown): AskRequest {
  const c = classifyServerRequest(method, params, ctx);
  if (c.type !== 'ask') throw new Error('expected ask');
  return c;
}

/** An agent question with a secret question and a choice (codex 0.169.0 ToolRequestUserInputParams). */
function questionAsk(isBlocking = true): AskRequest {
  return classified('item/tool/requestUserInput', {
    threadId: 't',
    turnId: 'u',
    itemId: 'call_q',
    isBlocking,
    autoResolutionMs: null,
    questions: [
      { id: 'token', header: 'Token', question: 'Paste the deploy token', isOther: false, isSecret: true, options: null },
      { id: 'env', header: 'Env', question: 'Where?', isOther: false, isSecret: false, options: [{ label: 'staging', description: '' }] },
    ],
  });
}

function formAsk(): AskRequest {
  return classified('mcpServer/elicitation/request', {
    threadId: 't',
    turnId: null,
    serverName: 'vault',
    mode: 'form',
    _meta: null,
    message: 'Your password',
    requestedSchema: { type: 'object', properties: { password: { type: 'string' } }, required: ['password'] },
  });
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function makeBroker(over: Partial<BrokerOptions> = {}) {
  const recordDir = mkdtempSync(join(tmpdir(), 'angelia-broker-q-'));
  dirs.push(recordDir);
  const audit = memoryAudit();
  const updates: ApprovalView[] = [];
  const broker = new ApprovalBroker({ timeoutMs: 60_000, audit, onUpdate: (v) => updates.push(v), recordDir, ...over });
  return { broker, audit, updates, recordDir };
}

/** Everything the broker kept or told: audit lines, record files, views sent to subscribers, views listed. */
function everythingKept(b: ReturnType<typeof makeBroker>): string {
  b.broker.flushDeferred();
  const records = readdirSync(b.recordDir).map((f) => readFileSync(join(b.recordDir, f), 'utf8'));
  return JSON.stringify([b.audit.records, records, b.updates, b.broker.all()]);
}

describe('the broker with agent questions', () => {
  it('the view carries the questions and isBlocking; the first answer with answers wins', async () => {
    const b = makeBroker();
    const { id, response } = b.broker.open({ chatId: 'c', profile: 'p', ask: questionAsk(), rpcId: 7 });
    expect(b.broker.pending()[0]).toMatchObject({ kind: 'userInput', isBlocking: true, answers: ['allow', 'deny'] });
    expect(b.broker.pending()[0]?.questions?.map((q) => q.id)).toEqual(['token', 'env']);
    expect(b.broker.answer(id, 'allow', 'api', { answers: { token: [SECRET], env: ['staging'] } })).toEqual({
      outcome: 'answered',
      answer: 'allow',
      by: 'api',
    });
    expect(b.broker.answer(id, 'deny', 'window')).toEqual({ outcome: 'already-answered', answer: 'allow', by: 'api' });
    const s = await response;
    expect(s.wire).toEqual({ answers: { token: { answers: [SECRET] }, env: { answers: ['staging'] } } });
    expect(b.broker.all()[0]?.given).toEqual({ token: [SECRET_MASK], env: ['staging'] });
  });

  it('a secret answer is in no audit line, record, view or update', () => {
    const b = makeBroker();
    const { id } = b.broker.open({ chatId: 'c', profile: 'p', ask: questionAsk(), rpcId: 7 });
    b.broker.answer(id, 'allow', 'window', { answers: { token: [SECRET], env: ['staging'] } });
    const kept = everythingKept(b);
    expect(kept).not.toContain(SECRET);
    expect(kept).toContain(SECRET_MASK);
    expect(b.audit.records.find((r) => r.event === 'answered')).toMatchObject({ answered: ['token', 'env'], answer: 'allow', by: 'window' });
  });

  it('a wrong answer changes nothing (bad-answer), a right one after it is taken', () => {
    const b = makeBroker();
    const { id } = b.broker.open({ chatId: 'c', profile: 'p', ask: questionAsk(), rpcId: 7 });
    expect(() => b.broker.answer(id, 'allow', 'api', { answers: { token: [SECRET] } })).toThrow(AppFailure);
    expect(() => b.broker.answer(id, 'allow', 'api', { content: { a: 'b' } })).toThrow(/content only goes with an MCP form request/);
    expect(b.broker.pending()).toHaveLength(1);
    expect(everythingKept(b)).not.toContain(SECRET);
    expect(b.broker.answer(id, 'deny', 'api')).toMatchObject({ outcome: 'answered' });
    expect(b.broker.all()[0]?.given).toEqual({});
  });

  it('nobody answers: the empty answer by timeout, given {}', async () => {
    const b = makeBroker({ timeoutMs: 5 });
    const { response } = b.broker.open({ chatId: 'c', profile: 'p', ask: questionAsk(false), rpcId: 7 });
    expect(b.broker.pending()[0]?.isBlocking).toBe(false);
    const s = await response;
    expect(s).toMatchObject({ wire: { answers: {} }, answer: 'deny', by: 'timeout' });
    expect(b.broker.all()[0]).toMatchObject({ state: 'timedOut', given: {} });
    expect(b.audit.records.find((r) => r.event === 'timed-out')).toMatchObject({ answered: [] });
  });

  it('withdrawn like any approval (the turn ended)', () => {
    const b = makeBroker();
    b.broker.open({ chatId: 'c', profile: 'p', ask: questionAsk(), rpcId: 7 });
    expect(b.broker.withdraw((v) => v.chatId === 'c', 'the turn ended')).toBe(1);
    expect(b.broker.all()[0]).toMatchObject({ state: 'withdrawn', withdrawnWhy: 'the turn ended' });
  });
});

describe('the broker with MCP elicitations', () => {
  it('accept sends the content; the audit names the fields, never a value; no given', async () => {
    const b = makeBroker();
    const { id, response } = b.broker.open({ chatId: 'c', profile: 'p', ask: formAsk(), rpcId: 'mcp-1' });
    expect(b.broker.pending()[0]?.elicitation).toMatchObject({ serverName: 'vault', mode: 'form' });
    b.broker.answer(id, 'allow', 'api', { content: { password: SECRET } });
    expect((await response).wire).toEqual({ action: 'accept', content: { password: SECRET }, _meta: null });
    expect(b.audit.records.find((r) => r.event === 'answered')).toMatchObject({ fields: ['password'] });
    expect(b.broker.all()[0]?.given).toBeUndefined();
    expect(everythingKept(b)).not.toContain(SECRET);
  });

  it('content that does not fit the form is refused and nothing changes', () => {
    const b = makeBroker();
    const { id } = b.broker.open({ chatId: 'c', profile: 'p', ask: formAsk(), rpcId: 'mcp-1' });
    expect(() => b.broker.answer(id, 'allow', 'api', { content: { password: 3 } })).toThrow(/the field "password" takes text/);
    expect(() => b.broker.answer(id, 'allow', 'api', { answers: { a: ['b'] } })).toThrow(/answers only go with an agent question/);
    expect(b.broker.pending()).toHaveLength(1);
  });
});
