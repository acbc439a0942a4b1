import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { ApprovalBroker } from '../../../src/main/core/approvals/broker';
import {
  APPROVAL_RECORD_MAX_AGE_DAYS,
  ApprovalRecord,
  approvalRecordFile,
  readApprovalRecords,
  reconcileApprovalRecords,
  writeApprovalRecord,
} from '../../../src/main/core/approvals/records';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'angelia-records-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function record(over: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    version: 1,
    id: '11111111-2222-4333-8444-555555555555',
    chatId: 'coder',
    profile: 'coder',
    kind: 'command',
    title: 'Run OUTSIDE the sandbox: rm -rf build/',
    command: 'rm -rf build/',
    cwd: '/w',
    reason: null,
    changes: [],
    requested: null,
    answers: ['allow', 'deny', 'cancel'],
    createdAt: '2026-03-01T10:00:00.000Z',
    state: 'pending',
    answer: null,
    by: null,
    granted: null,
    denyReason: null,
    rpcId: 4,
    threadId: 't',
    turnId: 'u',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...over,
  };
}

const read = (dir: string, id: string) => ApprovalRecord.parse(JSON.parse(readFileSync(approvalRecordFile(dir, id), 'utf8')));

describe('approval records', () => {
  it('reconcile marks a pending record abandoned, audits it, and leaves settled ones', async () => {
    const dir = join(tempDir(), 'approvals');
    const pending = record();
    const answered = record({ id: 'aaaaaaaa-2222-4333-8444-555555555555', state: 'answered', answer: 'deny', by: 'window' });
    writeApprovalRecord(dir, pending);
    writeApprovalRecord(dir, answered);
    const audit = memoryAudit();
    const now = new Date('2026-03-02T00:00:00.000Z');
    expect(await reconcileApprovalRecords(dir, audit, { now: () => now })).toBe(1);
    expect(read(dir, pending.id)).toEqual({ ...pending, state: 'abandoned', updatedAt: now.toISOString() });
    expect(statSync(approvalRecordFile(dir, pending.id)).mode & 0o777).toBe(0o600);
    expect(read(dir, answered.id)).toEqual(answered);
    expect(audit.records).toEqual([
      {
        at: now.toISOString(),
        event: 'abandoned',
        approvalId: pending.id,
        chatId: 'coder',
        profile: 'coder',
        kind: 'command',
        title: pending.title,
        rpcId: 4,
      },
    ]);
    // A second start finds nothing left to abandon.
    expect(await reconcileApprovalRecords(dir, audit, { now: () => now })).toBe(0);
    expect(audit.records).toHaveLength(1);
  });

  it('a request left pending by a broker is abandoned on the next start', async () => {
    const dir = join(tempDir(), 'approvals');
    const c = classifyServerRequest(
      'item/fileChange/requestApproval',
      { threadId: 't', turnId: 'u', itemId: 'x' },
      { fileChanges: new Map(), onRequest: true },
    );
    if (c.type !== 'ask') throw new Error('expected ask');
    const broker = new ApprovalBroker({ timeoutMs: 60_000, audit: memoryAudit(), onUpdate: () => undefined, recordDir: dir });
    const { id } = broker.open({ chatId: 'c', profile: 'p', ask: c, rpcId: 9 });
    broker.withdraw(() => false);
    // … the process dies here; a new one starts:
    const audit = memoryAudit();
    expect(await reconcileApprovalRecords(dir, audit)).toBe(1);
    expect(read(dir, id)).toMatchObject({ state: 'abandoned', rpcId: 9, kind: 'fileChange' });
    expect(audit.records.map((r) => [r.event, r.approvalId])).toEqual([['abandoned', id]]);
  });

  it(`reconcile deletes settled records older than ${APPROVAL_RECORD_MAX_AGE_DAYS} days and leaves unreadable files alone`, async () => {
    const dir = join(tempDir(), 'approvals');
    const old = record({ id: 'bbbbbbbb-2222-4333-8444-555555555555', state: 'answered', answer: 'allow', by: 'window', updatedAt: '2026-01-01T00:00:00.000Z' });
    const recent = record({
      id: 'cccccccc-2222-4333-8444-555555555555',
      state: 'timedOut',
      answer: 'deny',
      by: 'timeout',
      updatedAt: '2026-02-20T00:00:00.000Z',
    });
    writeApprovalRecord(dir, old);
    writeApprovalRecord(dir, recent);
    writeFileSync(join(dir, 'dddddddd-2222-4333-8444-555555555555.json'), '{not json');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const now = new Date('2026-03-02T00:00:00.000Z');
    expect(await reconcileApprovalRecords(dir, memoryAudit(), { now: () => now })).toBe(0);
    expect(existsSync(approvalRecordFile(dir, old.id))).toBe(false);
    expect(existsSync(approvalRecordFile(dir, recent.id))).toBe(true);
    expect(existsSync(join(dir, 'dddddddd-2222-4333-8444-555555555555.json'))).toBe(true);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    expect((await readApprovalRecords(dir)).map((r) => r.id)).toEqual([recent.id]);
  });

  it('a missing folder reconciles to 0; the folder is tightened to 700', async () => {
    const root = tempDir();
    expect(await reconcileApprovalRecords(join(root, 'nope'), memoryAudit())).toBe(0);
    const dir = join(root, 'approvals');
    mkdirSync(dir, { mode: 0o755 });
    writeApprovalRecord(dir, record());
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a record id with path parts and a malformed record', () => {
    const dir = tempDir();
    expect(() => approvalRecordFile(dir, '../x')).toThrow(/not an approval id/);
    expect(() => writeApprovalRecord(dir, { ...record(), state: 'weird' } as unknown as ApprovalRecord)).toThrow();
  });
});
