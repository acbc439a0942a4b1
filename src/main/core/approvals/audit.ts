/**
 * The append-only audit log of approvals (`<state>/audit.jsonl`): one JSON object a line for every
 * request and its outcome (who answered, when, what). Lines are appended with O_APPEND; the file is
 * created mode 600.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One audit record. `at` is an ISO time. */
export interface AuditRecord {
  at: string;
  event: 'requested' | 'answered' | 'withdrawn' | 'timed-out' | 'refused-unknown' | 'answered-immediately';
  approvalId?: string;
  chatId: string;
  profile: string;
  kind: string;
  title?: string;
  answer?: string;
  by?: string;
  method?: string;
}

/** Where audit records go. */
export interface AuditSink {
  append(record: AuditRecord): void;
}

/** An audit sink writing JSONL to `file` (append-only, mode 600). Errors propagate: an audit that cannot be written is not silent. */
export function fileAudit(file: string): AuditSink {
  return {
    append(record) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, JSON.stringify(record) + '\n', { mode: 0o600, flag: 'a' });
    },
  };
}

/** An in-memory audit sink (tests, and hosts that run without an instance). */
export function memoryAudit(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return { records, append: (r) => void records.push(r) };
}
