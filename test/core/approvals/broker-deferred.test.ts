/**
 * The approval broker writes an answer's record one macrotask after the answer (broker.ts `settle`), so
 * the file write is not between an answer and Codex; a request's records still land in order, and
 * `flushDeferred` writes what waits at once (shutdown).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/main/core/approvals/broker';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const recordDir = mkdtempSync(join(tmpdir(), 'angelia-broker-deferred-'));
  dirs.push(recordDir);
  const broker = new ApprovalBroker({ timeoutMs: 60_000, audit: memoryAudit(), onUpdate: () => undefined, recordDir });
  const c = classifyServerRequest(
    'item/commandExecution/requestApproval',
    { threadId: 't', turnId: 'u', itemId: 'i', command: 'ls', cwd: '/w', availableDecisions: ['accept', 'decline'] },
    { fileChanges: new Map(), onRequest: true },
  );
  if (c.type !== 'ask') throw new Error('expected ask');
  const state = (id: string): string => (JSON.parse(readFileSync(join(recordDir, `${id}.json`), 'utf8')) as { state: string }).state;
  return { broker, ask: c, state };
}

describe('deferred approval records', () => {
  it('settles the answer before its record is written, and writes the record one macrotask later', async () => {
    const { broker, ask, state } = setup();
    const { id, response } = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: 1 });
    expect(state(id)).toBe('pending');
    broker.answer(id, 'deny', 'window');
    await expect(response).resolves.toMatchObject({ wire: { decision: 'decline' } });
    expect(state(id)).toBe('pending');
    await new Promise((r) => setImmediate(r));
    expect(state(id)).toBe('answered');
  });

  it('writes the waiting records before a later record, and at once on flushDeferred', () => {
    const { broker, ask, state } = setup();
    const a = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: 1 });
    broker.answer(a.id, 'allow', 'window');
    expect(state(a.id)).toBe('pending');
    const b = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: 2 });
    expect(state(a.id)).toBe('answered');
    expect(state(b.id)).toBe('pending');
    broker.answer(b.id, 'deny', 'window');
    broker.flushDeferred();
    expect(state(b.id)).toBe('answered');
  });
});
