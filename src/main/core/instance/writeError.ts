/**
 * The one wording of a failed write of Angelia's own files (state files, the table, approval records, the
 * audit log, exports): the file, and in words why (the disk is full, the folder is not writable, a read-only
 * file system), with the previous version kept. Node's own error does not name the file on a failed
 * `write` (only the descriptor), and names write-file-atomic's temp file on a failed `open`, so the
 * writers (jsonStore.ts, atomic.ts, approvals/audit.ts, the chat's `/export`) re-throw through here.
 * The errno `code` is kept on the error, so callers that test it behave as before.
 */
import { dirname } from 'node:path';

/** A write of `path` that failed with errno `code` (ENOSPC, EACCES, EROFS …); `message` says so in words. */
export class WriteError extends Error {
  readonly code: string | undefined;
  readonly path: string;
  constructor(path: string, code: string | undefined, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'WriteError';
    this.code = code;
    this.path = path;
  }
}

/**
 * The sentence for a failed write of `file` with errno `code` (pure). `detail` is the fs error's own
 * message, used only for a code without wording of its own.
 */
export function writeErrorMessage(file: string, code: string | undefined, detail: string): string {
  const kept = 'The previous version was left as it was.';
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `Could not write ${file}: the disk is full (${code}). ${kept} Free some space and try again.`;
    case 'EACCES':
    case 'EPERM':
      return `Could not write ${file}: the folder ${dirname(file)} is not writable (${code}). ${kept}`;
    case 'EROFS':
      return `Could not write ${file}: the folder ${dirname(file)} is on a read-only file system (EROFS). ${kept}`;
    default:
      return `Could not write ${file}: ${detail}`;
  }
}

/** `e` as a WriteError for `file` (already one: unchanged; anything without an errno code: unchanged). */
export function asWriteError(file: string, e: unknown): unknown {
  if (e instanceof WriteError) return e;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return e;
  return new WriteError(file, code, writeErrorMessage(file, code, (e as Error).message), e);
}
