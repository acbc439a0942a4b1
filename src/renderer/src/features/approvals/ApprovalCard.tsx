/**
 * The approval card: exactly what is asked (the full command with cwd and reason, the diff, or the
 * requested folders against the profile) and one button per offered answer (Deny = decline, the turn
 * goes on; "Deny and stop" = cancel, only when offered). A permissions request for more than one thing
 * lists them with checkboxes, and Allow grants what stays checked. Paths Angelia never grants (Angelia's
 * private state, Codex's home, credentials, other profiles' folders) are listed as refused, never offered. "Deny with a reason…" opens a field
 * whose text reaches the agent after the decline. A command Codex asks to run OUTSIDE the sandbox
 * says first what that means (shared/approvalText.ts). Once settled the card has no active button and
 * says how it ended, from what the core recorded (`by`, not whether this page clicked): "Allowed once —
 * answered in the window" (or from a notification, the tray, the command line, the local API), "Timed
 * out after 10 min: denied", "Withdrawn: the turn ended"; then what was granted or the reason given. A
 * click that lost the race says "already answered" and names the answer in force. Each Allow names its
 * scope: once / for this turn / for this session.
 */
import { useState, type ReactElement } from 'react';
import type { AnswerOutcome, ApprovalAnswer, ApprovalView, ProfileView } from '../../../../shared/contract';
import type { Result } from '../../../../shared/result';
import { outsideSandboxLines } from '../../../../shared/approvalText';
import { Untrusted } from './Untrusted';
import { useSession, type AnswerExtra } from '../../api/session';
import { useAppStore } from '../../store/store';
import { Diff } from '../../ui/Diff';
import { alreadyGiven } from '../profiles/addFolder';
import { AddFolderLink } from '../profiles/AddFolderLink';
import { DenyReasonForm, GrantPicker, SettledDetails } from './AnswerExtras';
import { ElicitationCard, openInBrowser } from './ElicitationCard';
import { QuestionCard } from './QuestionCard';
import { accessCount, accessDiff, alreadyAnsweredLine, answerLabel, grantOf, outcomeNote, refusedLines, settledLine, type AccessLine } from './describe';
import { ApprovalNote, SettledStatus } from './CardFooter';

function AccessDiff({ lines }: { lines: AccessLine[] }): ReactElement {
  return (
    <pre className="access-diff" data-testid="approval-access">
      {lines.map((l) => (
        <span key={l.key} className={l.sign === '+' ? 'diff-add' : 'diff-ctx'}>
          {l.sign} {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function What({ view, picker }: { view: ApprovalView; picker: ReactElement | null }): ReactElement {
  const profile = useAppStore((s) => s.chats.profiles[view.profile]);
  const lines = view.requested ? accessDiff(view.requested, profile) : [];
  return (
    <div className="approval-what">
      <OutsideSandbox view={view} />
      {view.command !== null && (
        <pre className="approval-command" data-testid="approval-command">
          <span className="prompt">$ </span>
          <Untrusted text={view.command} />
        </pre>
      )}
      {view.cwd !== null && (
        <div className="meta">
          in{' '}
          <code>
            <Untrusted text={view.cwd} />
          </code>
        </div>
      )}
      {view.changes.map((c) => (
        <div key={c.path} className="file-change">
          <div className="file-path">
            <span className="kind">{c.kind}</span>{' '}
            <code>
              <Untrusted text={c.path} />
            </code>
          </div>
          <Diff diff={c.diff} />
        </div>
      ))}
      {picker ?? (lines.length > 0 && <AccessDiff lines={lines} />)}
      <Refused view={view} />
      {view.reason !== null && (
        <div className="approval-reason">
          “<Untrusted text={view.reason} />”
        </div>
      )}
      <AddFolders view={view} />
    </div>
  );
}

/** For a command to run outside the sandbox: what an Allow lets it do, before the command itself. */
function OutsideSandbox({ view }: { view: ApprovalView }): ReactElement | null {
  if (!view.outsideSandbox) return null;
  const [headline, reach, advice] = outsideSandboxLines(view.outsideSandbox);
  return (
    <div className="approval-escalation" data-testid="approval-escalation" role="note">
      <p className="headline">⚠ {headline}</p>
      <p>{reach}</p>
      <p>{advice}</p>
    </div>
  );
}

/** What the request also asked for and Angelia never grants, whoever answers: listed, never offered. */
function Refused({ view }: { view: ApprovalView }): ReactElement | null {
  const lines = refusedLines(view);
  if (lines.length === 0) return null;
  return (
    <pre className="access-diff access-refused" data-testid="approval-refused">
      {lines.map((l) => (
        <span key={l} className={l.startsWith('= ') ? 'diff-ctx' : 'diff-del'}>
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** For a permissions request: one "Add … to the profile" link per requested folder the profile does not give yet. */
function AddFolders({ view }: { view: ApprovalView }): ReactElement | null {
  const profile = useAppStore((s) => s.chats.profiles[view.profile]);
  if (!view.requested) return null;
  const folders = [...new Set([...view.requested.write, ...view.requested.read])].filter((f) => !alreadyGiven(f, profile));
  if (folders.length === 0) return null;
  return (
    <div className="add-folders" data-testid="add-folders">
      <span className="meta">Needed every time?</span>
      {folders.map((f) => (
        <AddFolderLink key={f} profile={view.profile} folder={f} />
      ))}
    </div>
  );
}

const grants = (a: ApprovalAnswer): boolean => a === 'allow' || a === 'allowForSession';

/** One approval, inline in the chat (from the store). Renders a placeholder while the approval is not yet known. */
export function ApprovalCard({ approvalId }: { approvalId: string }): ReactElement {
  const session = useSession();
  const view = useAppStore((s) => s.approvals.byId[approvalId]);
  const outcome = useAppStore((s) => s.approvals.outcomes[approvalId]);
  const profile = useAppStore((s) => (view ? s.chats.profiles[view.profile] : undefined));
  if (!view) {
    return (
      <div className="approval-card" data-testid="approval-card" data-state="loading">
        Approval request…
      </div>
    );
  }
  const onAnswer = (a: ApprovalAnswer, extra: AnswerExtra): Promise<Result<AnswerOutcome>> => session.answer(view.id, a, extra);
  // An agent's questions and an MCP elicitation have cards of their own (QuestionCard.tsx, ElicitationCard.tsx).
  if (view.kind === 'userInput' && view.questions) return <QuestionCard view={view} outcome={outcome} onAnswer={onAnswer} />;
  if (view.kind === 'elicitation' && view.elicitation)
    return <ElicitationCard view={view} outcome={outcome} onAnswer={onAnswer} onOpen={openInBrowser(session.openExternal)} />;
  return <ApprovalCardView view={view} outcome={outcome} profile={profile} onAnswer={onAnswer} />;
}

/** What `ApprovalCardView` shows and does: the request, this page's last outcome for it, its profile, and how to answer. */
export interface ApprovalCardProps {
  view: ApprovalView;
  outcome: AnswerOutcome | undefined;
  profile: ProfileView | undefined;
  onAnswer: (answer: ApprovalAnswer, extra: AnswerExtra) => Promise<Result<AnswerOutcome>>;
}

/** The card for one approval view (see the file comment); `ApprovalCard` feeds it from the store. */
export function ApprovalCardView({ view, outcome, profile, onAnswer }: ApprovalCardProps): ReactElement {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [reasonOpen, setReasonOpen] = useState(false);
  const pending = view.state === 'pending';
  const pickable = pending && view.kind === 'permissions' && view.requested !== null && accessCount(view.requested) > 1 && view.answers.some(grants);
  const grant = pickable && view.requested ? grantOf(view.requested, unchecked) : null;
  const nothingChecked = grant !== null && grant.read.length === 0 && grant.write.length === 0 && !grant.network;

  const answer = async (a: ApprovalAnswer, extra: AnswerExtra = {}): Promise<void> => {
    if (!pending) {
      // Only reachable in the moment between a settlement and its render (settled cards' buttons are disabled).
      setNote(alreadyAnsweredLine(view.answer, view.by, view.kind));
      return;
    }
    setBusy(true);
    setNote(null);
    const r = await onAnswer(a, extra);
    setBusy(false);
    if (!r.ok) setNote(`Could not answer: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
    else setReasonOpen(false);
  };
  const click = (a: ApprovalAnswer): Promise<void> => answer(a, grants(a) && grant ? { grant } : {});
  const toggle = (key: string): void => {
    const next = new Set(unchecked);
    if (!next.delete(key)) next.add(key);
    setUnchecked(next);
  };

  const picker =
    pickable && view.requested ? <GrantPicker lines={accessDiff(view.requested, profile)} unchecked={unchecked} onToggle={toggle} disabled={busy} /> : null;
  const shownNote = note ?? outcomeNote(outcome, view.kind);
  return (
    <div
      className={`approval-card ${pending ? 'pending' : 'settled'}`}
      data-testid="approval-card"
      data-state={view.state}
      data-answer={view.answer ?? undefined}
      data-approval-id={view.id}
    >
      <div className="approval-title">
        <span className="approval-dot" aria-hidden="true" /> <Untrusted text={view.title} />
      </div>
      <What view={view} picker={picker} />
      <div className="approval-buttons">
        {view.answers.map((a) => (
          <button
            key={a}
            type="button"
            className={`btn answer-${a}${view.answer === a ? ' chosen' : ''}`}
            data-testid={`approval-${a}`}
            aria-pressed={view.answer === a ? true : undefined}
            disabled={!pending || busy || (nothingChecked && grants(a))}
            title={!pending ? settledLine(view) : nothingChecked && grants(a) ? 'Nothing is checked: check what to grant, or Deny' : undefined}
            onClick={() => void click(a)}
          >
            {answerLabel(view.kind, a)}
          </button>
        ))}
        {pending && view.answers.includes('deny') && !reasonOpen && (
          <button type="button" className="btn link" data-testid="deny-with-reason" disabled={busy} onClick={() => setReasonOpen(true)}>
            Deny with a reason…
          </button>
        )}
        {view.answers.length === 0 && pending && <span className="meta">No answer can be given from here.</span>}
      </div>
      {pending && reasonOpen && <DenyReasonForm busy={busy} onDeny={(reason) => void answer('deny', { reason })} onClose={() => setReasonOpen(false)} />}
      <SettledStatus settled={!pending} line={settledLine(view)} />
      {!pending && <SettledDetails view={view} />}
      <ApprovalNote note={shownNote} />
    </div>
  );
}
