/**
 * Disk full (ENOSPC, after half a write), an unwritable folder (EACCES) and a read-only file system (EROFS)
 * injected at the fs layer (test/reliability/fsFaults.ts) while Angelia's real writers write: the sessions
 * store (sessions.json), the table (the editor's save, `writeTableText`), an approval record and the audit
 * log, and a chat's `/export`. Each must fail with an error naming the file and the cause in words, leave
 * the previous file byte for byte, and leave nothing half-written (no temp file, no cut target, no half
 * audit line). The counts go to `$RELIABILITY_OUT/disk.json` when set (npm run reliability).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freshDir } from '../../src/main/demo/codexHome';
import { SessionStore } from '../../src/main/core/chats/sessions';
import { writeTableText } from '../../src/main/core/profiles/tableEdit';
import { approvalRecordFile, writeApprovalRecord, type ApprovalRecord } from '../../src/main/core/approvals/records';
import { fileAudit, type AuditRecord } from '../../src/main/core/approvals/audit';
import { exportCommand } from '../../src/main/core/chats/commands/export';
import type { CommandContext } from '../../src/main/core/chats/commands/context';
import type { CodexConnection } from '../../src/main/core/codex/connection';
import { injectFsFault, type FsFault, type InjectedFault } from '../reliability/fsFaults';
import { writeSummary } from '../reliability/summary';

const FAULTS: FsFault[] = ['ENOSPC', 'EACCES', 'EROFS'];
const WORDS: Record<FsFault, RegExp> = {
  ENOSPC: /the disk is full \(ENOSPC\)/,
  EACCES: /is not writable \(EACCES\)/,
  EROFS: /read-only file system \(EROFS\)/,
};

let injected: InjectedFault | null = null;
const dirs: string[] = [];
const held: Array<{ writer: string; fault: FsFault }> = [];
const startedAt = new Date().toISOString();
afterEach(() => {
  injected?.restore();
  injected = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => {
  writeSummary({
    suite: 'disk',
    title: 'Disk full, unwritable folder, read-only file system while writing state',
    cases: held.length,
    faults: Object.fromEntries(FAULTS.map((f) => [f, held.filter((h) => h.fault === f).length])),
    held: {
      'writes failed with the file and the cause named': held.length,
      'previous files changed': 0,
      'temp files left': 0,
      'half-written targets or audit lines': 0,
    },
    failures: [],
    facts: { writers: [...new Set(held.map((h) => h.writer))].join(', ') },
    startedAt,
    finishedAt: new Date().toISOString(),
  });
});

async function folder(): Promise<string> {
  const d = await freshDir('disk');
  dirs.push(d);
  return d;
}

/** Every file of `dir` (recursively, lock folders skipped) with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.endsWith('.lock')) walk(p);
      } else out.set(p, readFileSync(p, 'latin1'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** Runs `write` with `fault` injected under `dir`; checks the error and that `dir` holds exactly what it held. */
async function expectCleanFailure(writer: string, fault: FsFault, dir: string, file: RegExp | string, write: () => unknown): Promise<void> {
  const before = snapshot(dir);
  injected = injectFsFault(fault, dir);
  let error: unknown = null;
  try {
    await write();
  } catch (e) {
    error = e;
  }
  const hits = injected.hits();
  injected.restore();
  injected = null;
  expect(hits, `${writer}: the fault was never hit`).toBeGreaterThan(0);
  expect(error, `${writer} did not fail under ${fault}`).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).toMatch(WORDS[fault]);
  if (typeof file === 'string') expect(message).toContain(`Could not write ${file}:`);
  else expect(message).toMatch(file);
  expect((error as NodeJS.ErrnoException).code).toBe(fault);
  // Byte for byte what was there: no temp file, no cut target, no new half file.
  expect([...snapshot(dir)]).toEqual([...before]);
  held.push({ writer, fault });
}

describe.each(FAULTS)('%s while writing', (fault) => {
  it("the sessions store (a chat's session rows)", async () => {
    const dir = await folder();
    const file = join(dir, 'private', 'sessions.json');
    const store = new SessionStore(file);
    store.startNew('coder', 'coder');
    store.startNew('coder', 'coder');
    await expectCleanFailure('sessions.json', fault, join(dir, 'private'), file, () => store.startNew('coder', 'coder'));
    expect(new SessionStore(file).history('coder')).toHaveLength(2);
  });

  it("the table (the editor's save, with its .bak)", async () => {
    const dir = await folder();
    const file = join(dir, 'angelia.toml');
    await writeTableText(file, '[profiles.a]\ncwd = "/w/a"\n');
    await writeTableText(file, '[profiles.a]\ncwd = "/w/a"\nmodel = "m"\n');
    await expectCleanFailure('the table', fault, dir, file, () => writeTableText(file, '[profiles.a]\ncwd = "/w/b"\n'));
  });

  it('an approval record and the audit log', async () => {
    const dir = await folder();
    const records = join(dir, 'approvals');
    const rec = approvalRecord();
    writeApprovalRecord(records, rec);
    await expectCleanFailure('approval record', fault, records, approvalRecordFile(records, rec.id), () =>
      writeApprovalRecord(records, { ...rec, state: 'answered', answer: 'allow', by: 'window' }),
    );
    const log = join(dir, 'private', 'audit.jsonl');
    const audit = fileAudit(log);
    audit.append(auditRecord('requested'));
    await expectCleanFailure('audit log', fault, join(dir, 'private'), log, () => audit.append(auditRecord('answered')));
    expect(readFileSync(log, 'utf8').split('\n')).toHaveLength(2);
  });

  it("a chat's /export", async () => {
    const dir = await folder();
    const exportDir = join(dir, 'exports');
    mkdirSync(exportDir, { mode: 0o700 });
    const notices: string[] = [];
    const ctx = exportContext(exportDir, notices);
    await exportCommand(ctx);
    expect(notices.at(-1)).toMatch(/^Exported 0 rows to /);
    await expectCleanFailure('export', fault, exportDir, /^Could not write .*\/exports\/coder-.*\.md: /, () => exportCommand(ctx));
  });
});

function approvalRecord(): ApprovalRecord {
  return {
    version: 1,
    id: '11111111-2222-4333-8444-555555555555',
    chatId: 'coder',
    profile: 'coder',
    kind: 'command',
    title: 'Run OUTSIDE the sandbox: echo hi',
    command: 'echo hi',
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
  };
}

function auditRecord(event: AuditRecord['event']): AuditRecord {
  return { at: new Date().toISOString(), event, approvalId: '11111111-2222-4333-8444-555555555555', chatId: 'coder', profile: 'coder', kind: 'command' };
}

/** What `/export` reads of its chat: one started session, and a Codex that answers an empty page of turns. */
function exportContext(exportDir: string, notices: string[]): CommandContext {
  const conn = { request: () => Promise.resolve({ data: [], nextCursor: null }) } as unknown as CodexConnection;
  const row = { id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', threadId: 'thread-1', started: true, label: '' };
  return {
    chatId: 'coder',
    profile: 'coder',
    exportDir,
    sessions: { active: () => row },
    liveConnection: () => Promise.resolve(conn),
    notice: (t: string) => void notices.push(t),
  } as unknown as CommandContext;
}
