/**
 * The card of an MCP server's elicitation (codex 0.169.0 `mcpServer/elicitation/request`;
 * src/shared/questions.ts), inline in the chat like the approval card. It names the server and shows its
 * message as plain text (nothing of a server's text is ever HTML). Form mode: the fields (ElicitFields.tsx),
 * checked as they are filled (elicitForm.ts); Accept (the broker's `allow`, with `content`) sends them
 * only when every field is right, else it marks what to fix. URL mode: the full domain, large, and the
 * whole address as text; "Open <domain>" opens it in the browser only when clicked (the host's
 * `openExternal`, http and https only; in a browser tab a new tab). A mode Angelia does not render: the
 * message, and only Decline or Cancel. Decline = `deny`, Cancel = `cancel`. Enter in a field accepts.
 * Codex's own gate before an MCP tool runs (an empty form, `isToolGate`) shows as an approval: the
 * tool's parameters and description, Allow once / Allow for this session / Deny / Deny and stop.
 */
import type { FormEvent, ReactElement } from 'react';
import type { AnswerOutcome, ApprovalAnswer, ApprovalView, ElicitationView } from '../../../../shared/contract';
import { draftForm } from '../../store/approvals';
import { withSlice } from '../../store/app';
import { EMPTY_FORM, tried, type FormDraft } from '../../store/answerDrafts';
import { update, useAppStore } from '../../store/store';
import { answerLabel, outcomeNote, settledLine } from './describe';
import { ElicitFields } from './ElicitFields';
import { formContent, isToolGate, openableUrl, problemsSummary, shownProblems } from './elicitForm';
import { useAnswering, type OnAnswer } from './useAnswering';
import { Untrusted } from './Untrusted';
import { ApprovalNote, SettledStatus } from './CardFooter';

/**
 * Opens `url` in the system browser through the host (`open`: the preload's `openExternal`, which takes
 * only http and https), or, in a browser tab, in a new tab without a link back to this page.
 */
export function openInBrowser(open: ((url: string) => Promise<boolean>) | undefined): (url: string) => void {
  return (url) => {
    if (!openableUrl(url)) return;
    if (open) void open(url);
    else window.open(url, '_blank', 'noopener,noreferrer');
  };
}

/** The elicitation card of approval `view`, its form draft kept in the store. `onOpen`: how an address is opened. */
export function ElicitationCard({
  view,
  outcome,
  onAnswer,
  onOpen,
}: {
  view: ApprovalView;
  outcome: AnswerOutcome | undefined;
  onAnswer: OnAnswer;
  onOpen: (url: string) => void;
}): ReactElement {
  const draft = useAppStore((s) => s.approvals.formDrafts[view.id] ?? EMPTY_FORM);
  const onDraft = (next: FormDraft): void => update((s) => withSlice(s, 'approvals', draftForm(s.approvals, view.id, next)));
  return <ElicitationCardView view={view} outcome={outcome} draft={draft} onDraft={onDraft} onAnswer={onAnswer} onOpen={onOpen} />;
}

/** What `ElicitationCardView` shows and does. */
export interface ElicitationCardProps {
  view: ApprovalView;
  outcome: AnswerOutcome | undefined;
  draft: FormDraft;
  onDraft: (next: FormDraft) => void;
  onAnswer: OnAnswer;
  onOpen: (url: string) => void;
}

/** The card for one `elicitation` view (see the file comment). */
export function ElicitationCardView({ view, outcome, draft, onDraft, onAnswer, onOpen }: ElicitationCardProps): ReactElement {
  const { busy, note, send } = useAnswering(view, onAnswer);
  const pending = view.state === 'pending';
  const el = view.elicitation;
  const form = el?.mode === 'form' ? el.fields : null;
  const problems = form ? shownProblems(form, draft) : {};
  const summary = problemsSummary(problems);
  const accept = (e?: FormEvent): void => {
    e?.preventDefault();
    if (!pending || busy || !view.answers.includes('allow') || el?.mode === 'unsupported') return;
    // No form to fill (url mode, Codex's tool gate, an empty form): accept without content.
    if (!form || form.length === 0) return void send('allow');
    const r = formContent(form, draft);
    if ('problems' in r) return onDraft(tried(draft));
    void send('allow', { content: r.content });
  };
  const click = (a: ApprovalAnswer): void => (a === 'allow' ? accept() : void send(a));
  const answers = el?.mode === 'unsupported' ? view.answers.filter((a) => a !== 'allow' && a !== 'allowForSession') : view.answers;
  // Codex's own gate before an MCP tool runs reads as an approval: Allow once / for this session, Deny.
  const gate = isToolGate(view);
  const words = gate ? { ...view, kind: 'command' as const } : view;
  const shownNote = note ?? outcomeNote(outcome, words.kind);
  return (
    <form
      className={`approval-card elicit-card ${pending ? 'pending' : 'settled'}`}
      data-testid="elicit-card"
      data-state={view.state}
      data-mode={gate ? 'toolGate' : el?.mode}
      data-answer={view.answer ?? undefined}
      data-approval-id={view.id}
      onSubmit={accept}
      noValidate
    >
      <div className="approval-title">
        <span className="approval-dot" aria-hidden="true" /> <Untrusted text={view.title} />
      </div>
      {el && (
        <div className="meta" data-testid="elicit-server">
          From the MCP server <code>{el.serverName}</code>
        </div>
      )}
      {el?.message && (
        <div className="elicit-message" data-testid="elicit-message">
          <Untrusted text={el.message} />
        </div>
      )}
      {gate && view.command && (
        <pre className="approval-command" data-testid="elicit-params">
          {view.command}
        </pre>
      )}
      {gate && view.reason && <div className="approval-reason">{view.reason}</div>}
      {el?.mode === 'url' && <UrlTarget el={el} onOpen={pending ? onOpen : null} />}
      {el?.mode === 'unsupported' && <div className="meta">Angelia cannot show this kind of request: decline or cancel it.</div>}
      {form && form.length > 0 && pending && (
        <ElicitFields cardId={view.id} fields={form} draft={draft} problems={problems} disabled={busy} onDraft={onDraft} />
      )}
      <div className="approval-buttons">
        {answers.map((a) => (
          <button
            key={a}
            type={a === 'allow' ? 'submit' : 'button'}
            className={`btn answer-${a}${view.answer === a ? ' chosen' : ''}`}
            data-testid={`elicit-${a}`}
            aria-pressed={view.answer === a ? true : undefined}
            disabled={!pending || busy}
            title={!pending ? settledLine(words) : undefined}
            onClick={a === 'allow' ? undefined : () => click(a)}
          >
            {answerLabel(words.kind, a)}
          </button>
        ))}
        {pending && summary && (
          <span className="elicit-summary" data-testid="elicit-summary" role="status">
            {summary}
          </span>
        )}
      </div>
      <SettledStatus settled={!pending} line={settledLine(words)} />
      <ApprovalNote note={shownNote} />
    </form>
  );
}

/**
 * The domain cut only after its dots, each label kept whole: a line break inside a label (at a hyphen)
 * could make a look-alike domain read as another one.
 */
function domainParts(domain: string): ReactElement[] {
  return domain.split('.').map((label, i, all) => (
    <span key={i} className="domain-label">
      {label}
      {i < all.length - 1 ? '.' : ''}
      {i < all.length - 1 && <wbr />}
    </span>
  ));
}

/** URL mode: the domain large, the full address as text, and (while pending) a button that opens it only when clicked. */
function UrlTarget({ el, onOpen }: { el: ElicitationView; onOpen: ((url: string) => void) | null }): ReactElement {
  const url = el.url;
  const domain = el.domain ?? '(no domain)';
  // The core leaves out an address that is not http(s) (url and domain null): nothing to open.
  if (url === null) return <div className="meta">The server sent an address Angelia does not open (only http and https addresses are shown).</div>;
  return (
    <div className="elicit-url-box">
      <div className="meta">It asks you to open a page on</div>
      <div className="elicit-domain" data-testid="elicit-domain">
        {domainParts(domain)}
      </div>
      <code className="elicit-url" data-testid="elicit-url">
        {url}
      </code>
      {!onOpen ? null : openableUrl(url) ? (
        <button type="button" className="btn" data-testid="elicit-open" onClick={() => onOpen(url)}>
          Open {domainParts(domain)}
        </button>
      ) : (
        <div className="meta">Angelia opens only http and https addresses.</div>
      )}
    </div>
  );
}
