/**
 * One transcript entry, by type: user message (marked when it was steered into a running turn or typed
 * with a Deny), agent message (markdown, streaming), reasoning (collapsed), command, file change,
 * approval card, notice (a command's multi-line answer preformatted), error (red, with its kind and a
 * Restart when Codex can be started again, a "Sign in…" when Codex is not signed in) and turn end.
 */
import { memo, useState, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { ChatItem } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { ApprovalCard } from '../approvals/ApprovalCard';
import { CommandItem, FileChangeItem } from './CommandItem';
import { errorKindLabel, offersSignIn, viaCaption } from './describe';
import { UserImages } from './ImageThumbs';
import { TurnChangesButton } from '../turnDiff/TurnDiffView';
import { CodeSpans } from '../../ui/CodeSpans';

const markdownComponents: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
};

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A streaming message's markdown cut into blocks, so that each delta re-parses only the last block
 * instead of the whole message (react-markdown parses all its text on every render; at 200 deltas a
 * second that was most of each frame, docs/benchmarks.md "renderer"). A cut is made at a blank line
 * outside a fenced code block when the next line is not indented (an indented line may continue a list
 * item or an indented code block). Only used while the message streams: a finished message is rendered
 * whole, so a construct a cut splits (a loose list, a reference link) is exact once the message is done.
 */
export function streamingBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let blank = false;
  let hasText = false;
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]?.[0] === fence.char && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]) fence = null;
      current.push(line);
      continue;
    }
    if (line.trim() === '') {
      blank = hasText;
      current.push(line);
      continue;
    }
    if (blank && !/^[ \t]/.test(line)) {
      blocks.push(current.join('\n'));
      current = [];
    }
    blank = false;
    hasText = true;
    if (f?.[1]) fence = { char: f[1][0] as string, length: f[1].length };
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/** One block of a streaming message; unchanged blocks are not parsed again. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }): ReactElement {
  return <Markdown components={markdownComponents}>{text}</Markdown>;
});

function AgentMessage({ item }: { item: Extract<ChatItem, { type: 'agent' }> }): ReactElement {
  return (
    <div className="agent" data-testid="agent-message" data-done={item.done}>
      {item.done ? (
        <Markdown components={markdownComponents}>{item.text}</Markdown>
      ) : (
        streamingBlocks(item.text).map((block, i) => <MarkdownBlock key={i} text={block} />)
      )}
      {!item.done && <span className="caret" aria-label="writing" />}
    </div>
  );
}

function Reasoning({ item }: { item: Extract<ChatItem, { type: 'reasoning' }> }): ReactElement {
  const first = item.text.split('\n').find((l) => l.trim() !== '') ?? '';
  return (
    <details className="reasoning" data-testid="reasoning-item">
      <summary>
        Reasoning <span className="meta">{first.replace(/[*_`#]/g, '').slice(0, 80)}</span>
      </summary>
      <div className="reasoning-body">{item.text}</div>
    </details>
  );
}

function TurnEnd({ item, chatId }: { item: Extract<ChatItem, { type: 'turnEnd' }>; chatId: string }): ReactElement {
  const label = item.status === 'completed' ? 'turn done' : item.status === 'failed' ? 'turn failed' : 'turn stopped';
  return (
    <div className={`turn-end turn-${item.status}`} data-testid="turn-end" data-status={item.status}>
      <span>
        {label}
        {item.reason ? `: ${item.reason}` : ''}
      </span>
      {item.turnId && item.changes && <TurnChangesButton chatId={chatId} turnId={item.turnId} totals={item.changes.totals} />}
    </div>
  );
}

function UserMessage({ item, chatId }: { item: Extract<ChatItem, { type: 'user' }>; chatId: string }): ReactElement {
  const caption = viaCaption(item.via);
  const images = item.images?.length ? <UserImages chatId={chatId} images={item.images} /> : null;
  if (!caption) {
    return (
      <div className="user" data-testid="user-message" data-via={item.via ?? 'turn'}>
        {images}
        {item.text}
      </div>
    );
  }
  return (
    <div className={`user-wrap via-${item.via ?? 'turn'}`}>
      <div className="user" data-testid="user-message" data-via={item.via}>
        {images}
        {item.text}
      </div>
      <div className="user-via" data-testid="user-via">
        {caption}
      </div>
    </div>
  );
}

function Notice({ item }: { item: Extract<ChatItem, { type: 'notice' }> }): ReactElement {
  if (!item.text.includes('\n')) {
    return (
      <div className="notice" data-testid="notice">
        <CodeSpans text={item.text} />
      </div>
    );
  }
  return (
    <pre className="notice notice-block" data-testid="notice">
      {item.text}
    </pre>
  );
}

function ErrorItem({ item, chatId, canRestart }: { item: Extract<ChatItem, { type: 'error' }>; chatId: string; canRestart: boolean }): ReactElement {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const restart = async (): Promise<void> => {
    setBusy(true);
    setNote(null);
    const r = await session.restart(chatId);
    setBusy(false);
    if (!r.ok) setNote(`Could not restart: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
    else if (!r.value.started) setNote('Codex did not start; the reason is in the chat.');
  };
  return (
    <div className="error-item" data-testid="error-item" data-kind={item.kind} role="alert">
      <div className="error-head">
        {item.kind && (
          <span className="badge error-kind" data-testid="error-kind">
            {errorKindLabel(item.kind)}
          </span>
        )}
        <strong className="error-message">
          <CodeSpans text={item.message} />
        </strong>
        {item.action === 'restart' && canRestart && (
          <button type="button" className="btn small restart" data-testid="restart-button" disabled={busy} onClick={() => void restart()}>
            {busy ? 'Restarting…' : 'Restart'}
          </button>
        )}
        {offersSignIn(item) && (
          <button type="button" className="btn small sign-in-offer" data-testid="sign-in-offer" onClick={() => session.openSignIn()}>
            Sign in…
          </button>
        )}
      </div>
      {/* One line is Angelia's hint (commands in backticks); several lines are output, shown as written. */}
      {item.detail && <pre className="error-detail">{item.detail.includes('\n') ? item.detail : <CodeSpans text={item.detail} />}</pre>}
      {note && <div className="error-note">{note}</div>}
    </div>
  );
}

/**
 * Renders one item of chat `chatId`. `canRestart`: this error item's Restart is live (the newest such
 * item, while the chat is stopped by it). Memoised: an unchanged item (same object in the store) is
 * not re-rendered.
 */
export const Item = memo(function Item({ item, chatId, canRestart = false }: { item: ChatItem; chatId: string; canRestart?: boolean }): ReactElement {
  switch (item.type) {
    case 'user':
      return <UserMessage item={item} chatId={chatId} />;
    case 'agent':
      return <AgentMessage item={item} />;
    case 'reasoning':
      return <Reasoning item={item} />;
    case 'command':
      return <CommandItem item={item} chatId={chatId} />;
    case 'fileChange':
      return <FileChangeItem item={item} />;
    case 'approval':
      return <ApprovalCard approvalId={item.approvalId} />;
    case 'notice':
      return <Notice item={item} />;
    case 'warning':
      return (
        <div className="refusal warning-item" data-testid="warning-item" role="alert">
          {item.text}
        </div>
      );
    case 'error':
      return <ErrorItem item={item} chatId={chatId} canRestart={canRestart} />;
    case 'turnEnd':
      return <TurnEnd item={item} chatId={chatId} />;
  }
});
