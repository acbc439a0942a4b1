/**
 * The append-only audit log of approvals (`<state>/private/audit.jsonl`, in the private folder so that
 * its first line, written while agents run, is hidden from them: instance/paths.ts PRIVATE_DIR): one
 * JSON object a line for every server request and its outcome: who answered (`by`), when (`at`), what (`answer`, the `grant` of an
 * Allow, whether a reason was typed with a Deny and its text: the user's own words; for an agent question
 * only the ids of the questions answered, for an MCP form only the field names: never an answer or a value). The file is opened
 * with O_APPEND only (never truncated, never rewritten), created mode 600, and tightened to 600 if it
 * was found wider. Event names: `requested`, `answered`, `timed-out`, `withdrawn` (Codex settled it or
 * the turn ended), `abandoned` (left pending by an Angelia that is gone, see records.ts),
 * `answered-immediately` (a question without questions, an elicitation without a mode, permissions in a mode without approvals, and
 * requests that name only paths Angelia never grants, with `refused`: approvals/privateReach.ts),
 * `refused-unknown` (a method Angelia does not know, answered -32601), `never-sent` (Codex waits on an approval it
 * never sent: chats/ghostApproval.ts; `kind` command, fileChange or unknown, with the command when known).
 */
import { closeSync, fchmodSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RefusedAccess, RequestedAccess } from '../../../shared/contract';
import { asWriteError } from '../instance/writeError';

/** One audit record (one line of `audit.jsonl`). `at` is an ISO time; optional fields appear when they apply. */
export interface AuditRecord {
  at: string;
  event: 'requested' | 'answered' | 'withdrawn' | 'timed-out' | 'abandoned' | 'refused-unknown' | 'answered-immediately' | 'never-sent';
  /** Angelia's id of the request (a UUID); absent for requests answered at once. */
  approvalId?: string;
  chatId: string;
  profile: string;
  kind: string;
  title?: string;
  /** The answer in force (`timed-out`: the timeout's answer, `deny`). */
  answer?: string;
  /** Who answered: window, notification, tray, cli, api, timeout (AnswerSource), or codex (withdrawn). */
  by?: string;
  /** The Codex server request method (answered-immediately, refused-unknown). */
  method?: string;
  /** Codex's JSON-RPC id of the request. */
  rpcId?: string | number;
  /** What was asked (`requested`): the command, its cwd, the agent's reason, the access asked for. */
  command?: string | null;
  cwd?: string | null;
  askReason?: string | null;
  requested?: RequestedAccess | null;
  /** What the request also asked for and Angelia never grants (`requested`, `answered-immediately`). */
  refused?: RefusedAccess[];
  /** What an Allow of a permissions request granted (`answered`); null when nothing was granted. */
  grant?: RequestedAccess | null;
  /** Whether the person typed a reason with a Deny (`answered`), and the reason itself. */
  reasonTyped?: boolean;
  denyReason?: string | null;
  /** An agent question (`answered`, `timed-out`): the ids of the questions answered, never an answer (one may be secret). */
  answered?: string[];
  /** An accepted MCP form (`answered`): the names of the fields given, never a value. */
  fields?: string[];
}

/** Where audit records go. `append` is synchronous and throws when the record could not be written. */
export interface AuditSink {
  append(record: AuditRecord): void;
}

/**
 * An audit sink writing JSONL to `file`: each record is one line appended through an O_APPEND descriptor
 * (the file is never truncated). The folder is created mode 700 when missing, the file mode 600; an
 * existing file with a wider mode is chmod-ed to 600. Errors propagate as a WriteError naming the file and
 * the cause in words (instance/writeError.ts: the disk is full, the folder not writable …): an audit that
 * cannot be written is not silent. A line cut short by a failed write (ENOSPC after part of it) is cut off
 * again (the file truncated back to its length before the append), so the log never holds half a record.
 */
export function fileAudit(file: string): AuditSink {
  return {
    append(record) {
      let fd: number | null = null;
      let size = -1;
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        fd = openSync(file, 'a', 0o600);
        const st = fstatSync(fd);
        size = st.size;
        if ((st.mode & 0o777) !== 0o600) fchmodSync(fd, 0o600);
        const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
        let off = 0;
        while (off < line.length) off += writeSync(fd, line, off, line.length - off);
      } catch (e) {
        if (fd !== null && size >= 0) cutBack(fd, size);
        throw asWriteError(file, e);
      } finally {
        if (fd !== null) closeSync(fd);
      }
    },
  };
}

/** Truncates the log back to `size` bytes after a failed append (best effort: the append's error is what is reported). */
function cutBack(fd: number, size: number): void {
  try {
    if (fstatSync(fd).size > size) ftruncateSync(fd, size);
  } catch {
    // The append's own error is thrown by the caller.
  }
}

/** An in-memory audit sink (tests, and hosts that run without an instance). */
export function memoryAudit(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return { records, append: (r) => void records.push(r) };
}
