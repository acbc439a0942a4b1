/**
 * The two lines every approval card ends with (ApprovalCard, QuestionCard, ElicitationCard): how a settled
 * request was settled, and the note of the last answer tried (an error, or "already answered"). Text only.
 */
import type { ReactElement } from 'react';

/** The settled line (`line`, shown only when `settled`) and the note (shown when non-empty). */
export function SettledStatus({ settled, line }: { settled: boolean; line: string }): ReactElement | null {
  return settled ? (
    <div className="approval-status" data-testid="approval-status">
      {line}
    </div>
  ) : null;
}

/** The note of the last answer tried (null or '': nothing shown). */
export function ApprovalNote({ note }: { note: string | null | undefined }): ReactElement | null {
  return note ? (
    <div className="approval-note" data-testid="approval-note" role="status">
      {note}
    </div>
  ) : null;
}
