/**
 * The approval card: exactly what is asked (the full command with cwd and reason, the diff, or the
 * requested folders against the profile) and one button per offered answer. Once settled it says what
 * was answered and by whom; a click on a settled card says "already answered" and sends nothing.
 */
import { useState, type ReactElement } from 'react';
import type { ApprovalAnswer, ApprovalView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { Diff } from '../../ui/Diff';
import { ANSWER_LABEL, accessDiff, outcomeNote, settledLine } from './describe';

function What({ view }: { view: ApprovalView }): ReactElement {
  const profile = useAppStore((s) => s.chats.profiles[view.profile]);
  const lines = view.requested ? accessDiff(view.requested, profile) : [];
  return (
    <div className="approval-what">
      {view.command !== null && (
        <pre className="approval-command" data-testid="approval-command">
          <span className="prompt">$ </span>
          {view.command}
        </pre>
      )}
      {view.cwd !== null && (
        <div className="meta">
          in <code>{view.cwd}</code>
        </div>
      )}
      {view.changes.map((c) => (
        <div key={c.path} className="file-change">
          <div className="file-path">
            <span className="kind">{c.kind}</span> <code>{c.path}</code>
          </div>
          <Diff diff={c.diff} />
        </div>
      ))}
      {lines.length > 0 && (
        <pre className="access-diff" data-testid="approval-access">
          {lines.map((l, i) => (
            <span key={i} className={l.sign === '+' ? 'diff-add' : 'diff-ctx'}>
              {l.sign} {l.text}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
      {view.reason !== null && <div className="approval-reason">“{view.reason}”</div>}
    </div>
  );
}

/** One approval, inline in the chat. Renders a placeholder while the approval is not yet known. */
export function ApprovalCard({ approvalId }: { approvalId: string }): ReactElement {
  const session = useSession();
  const view = useAppStore((s) => s.approvals.byId[approvalId]);
  const outcome = useAppStore((s) => s.approvals.outcomes[approvalId]);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  if (!view) {
    return (
      <div className="approval-card" data-testid="approval-card" data-state="loading">
        Approval request…
      </div>
    );
  }
  const pending = view.state === 'pending';

  const click = async (answer: ApprovalAnswer): Promise<void> => {
    if (!pending) {
      setNote(`Already answered: ${settledLine(view)}`);
      return;
    }
    setBusy(true);
    setNote(null);
    const r = await session.answer(view.id, answer);
    setBusy(false);
    if (!r.ok) setNote(`Could not answer: ${r.error.message}`);
  };

  const shownNote = note ?? outcomeNote(outcome);
  return (
    <div className={`approval-card ${pending ? 'pending' : 'settled'}`} data-testid="approval-card" data-state={view.state} data-approval-id={view.id}>
      <div className="approval-title">
        <span className="approval-dot" aria-hidden="true" /> {view.title}
      </div>
      <What view={view} />
      <div className="approval-buttons">
        {view.answers.map((a) => (
          <button
            key={a}
            type="button"
            className={`btn answer-${a}${view.answer === a ? ' chosen' : ''}`}
            data-testid={`approval-${a}`}
            aria-pressed={view.answer === a ? true : undefined}
            disabled={busy}
            onClick={() => void click(a)}
          >
            {ANSWER_LABEL[a]}
          </button>
        ))}
        {view.answers.length === 0 && pending && <span className="meta">No answer can be given from here.</span>}
      </div>
      {!pending && (
        <div className="approval-status" data-testid="approval-status">
          {settledLine(view)}
        </div>
      )}
      {shownNote && (
        <div className="approval-note" data-testid="approval-note" role="status">
          {shownNote}
        </div>
      )}
    </div>
  );
}
