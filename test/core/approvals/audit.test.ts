import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileAudit, type AuditRecord } from '../../../src/main/core/approvals/audit';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'angelia-audit-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const rec = (event: AuditRecord['event'], extra: Partial<AuditRecord> = {}): AuditRecord => ({
  at: '2026-03-01T00:00:00.000Z',
  event,
  chatId: 'c',
  profile: 'p',
  kind: 'command',
  ...extra,
});

describe('audit log', () => {
  it('creates the file mode 600 (folder 700) and appends one JSON line per record', () => {
    const file = join(tempDir(), 'state', 'audit.jsonl');
    const audit = fileAudit(file);
    audit.append(rec('requested', { approvalId: 'a1', rpcId: 3 }));
    audit.append(rec('answered', { approvalId: 'a1', answer: 'deny', by: 'window', grant: null, reasonTyped: true, denyReason: 'use "make clean"\ninstead' }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ event: 'answered', by: 'window', reasonTyped: true, denyReason: 'use "make clean"\ninstead' });
  });

  it('never truncates an existing log, and tightens a wider mode to 600', () => {
    const file = join(tempDir(), 'audit.jsonl');
    writeFileSync(file, '{"old":1}\n');
    chmodSync(file, 0o644);
    fileAudit(file).append(rec('withdrawn'));
    fileAudit(file).append(rec('abandoned'));
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('{"old":1}');
    expect(lines.slice(1).map((l) => JSON.parse(l).event)).toEqual(['withdrawn', 'abandoned']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('throws when the log cannot be written (an audit is never silent)', () => {
    const dir = tempDir();
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    expect(() => fileAudit(join(blocker, 'audit.jsonl')).append(rec('requested'))).toThrow();
  });
});
