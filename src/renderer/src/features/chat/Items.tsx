/**
 * One transcript entry, by type: user message, agent message (markdown, streaming), reasoning
 * (collapsed), command, file change, approval card, notice, error (red) and turn end.
 */
import { memo, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { ChatItem } from '../../../../shared/contract';
import { ApprovalCard } from '../approvals/ApprovalCard';
import { CommandItem, FileChangeItem } from './CommandItem';

const markdownComponents: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
};

function AgentMessage({ item }: { item: Extract<ChatItem, { type: 'agent' }> }): ReactElement {
  return (
    <div className="agent" data-testid="agent-message" data-done={item.done}>
      <Markdown components={markdownComponents}>{item.text}</Markdown>
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

function TurnEnd({ item }: { item: Extract<ChatItem, { type: 'turnEnd' }> }): ReactElement {
  const label = item.status === 'completed' ? 'turn done' : item.status === 'failed' ? 'turn failed' : 'turn stopped';
  return (
    <div className={`turn-end turn-${item.status}`} data-testid="turn-end">
      <span>
        {label}
        {item.reason ? `: ${item.reason}` : ''}
      </span>
    </div>
  );
}

/** Renders one item. Memoised: an unchanged item (same object in the store) is not re-rendered. */
export const Item = memo(function Item({ item }: { item: ChatItem }): ReactElement {
  switch (item.type) {
    case 'user':
      return (
        <div className="user" data-testid="user-message">
          {item.text}
        </div>
      );
    case 'agent':
      return <AgentMessage item={item} />;
    case 'reasoning':
      return <Reasoning item={item} />;
    case 'command':
      return <CommandItem item={item} />;
    case 'fileChange':
      return <FileChangeItem item={item} />;
    case 'approval':
      return <ApprovalCard approvalId={item.approvalId} />;
    case 'notice':
      return (
        <div className="notice" data-testid="notice">
          {item.text}
        </div>
      );
    case 'error':
      return (
        <div className="error-item" data-testid="error-item" role="alert">
          <strong>{item.message}</strong>
          {item.detail && <pre className="error-detail">{item.detail}</pre>}
        </div>
      );
    case 'turnEnd':
      return <TurnEnd item={item} />;
  }
});
