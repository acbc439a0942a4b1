/**
 * The chat list: one row per chat with its name (the profile, and "· #n" for a profile's second and
 * later chats), the active session's label, state, enforcement, what it is doing now, last line and
 * pending approvals, and "paused until 14:05" while a usage limit holds its queue. The last line is Markdown; the row shows its plain text (preview.ts).
 */
import { useMemo, type ReactElement } from 'react';
import { useSession } from '../../api/session';
import { chatName } from '../../store/chats';
import { useAppStore } from '../../store/store';
import { ActivityBadge, EnforcementBadge, StateBadge } from '../../ui/Badges';
import { PausedLine } from '../usage/Meters';
import { plainPreview } from './preview';

function Row({ chatId, selected }: { chatId: string; selected: boolean }): ReactElement | null {
  const session = useSession();
  const chat = useAppStore((s) => s.chats.byId[chatId]);
  const name = useAppStore((s) => chatName(s.chats, chatId));
  const profile = useAppStore((s) => (chat ? s.chats.profiles[chat.profile] : undefined));
  const last = useMemo(() => plainPreview(chat?.lastLine ?? ''), [chat?.lastLine]);
  if (!chat) return null;
  return (
    <button
      type="button"
      className={`chat-row${selected ? ' selected' : ''} row-${chat.state}`}
      data-testid="chat-list-item"
      data-chat-id={chat.id}
      aria-current={selected ? 'true' : undefined}
      onClick={() => session.select(chat.id)}
    >
      <div className="row-top">
        <strong className="row-name" data-testid="chat-name">
          {name}
        </strong>
        {chat.label && (
          <span className="row-label" data-testid="row-label" title={chat.label}>
            {chat.label}
          </span>
        )}
        {chat.pendingApprovals > 0 && (
          <span className="badge pending-count" data-testid="pending-count" title="Approvals waiting for you">
            {chat.pendingApprovals}
          </span>
        )}
        <span className="spacer" />
        <StateBadge state={chat.state} />
      </div>
      <div className="row-bottom">
        <EnforcementBadge enforcement={chat.enforcement} sandboxed={profile?.sandboxed} state={chat.state} mode={chat.mode} />
        <ActivityBadge activity={chat.activity} />
        <PausedLine pausedUntil={chat.pausedUntil} where="row" />
        <span className="row-last" data-testid="row-last" title={chat.state === 'refused' ? undefined : last || undefined}>
          {chat.state === 'refused' ? (chat.refusal ?? 'refused') : last || 'No messages yet'}
        </span>
      </div>
    </button>
  );
}

/** Every chat, in the core's order. */
export function ChatList(): ReactElement {
  const order = useAppStore((s) => s.chats.order);
  const selected = useAppStore((s) => s.selection.chatId);
  return (
    <nav className="chat-list" data-testid="chat-list" aria-label="Chats">
      {order.length === 0 && <div className="empty">No chats yet. + New chat opens one.</div>}
      {order.map((id) => (
        <Row key={id} chatId={id} selected={id === selected} />
      ))}
    </nav>
  );
}
