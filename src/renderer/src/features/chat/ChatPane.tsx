/**
 * The open chat: a header (profile, state, enforcement, folder and mode, Stop), the refusal when the
 * agent was refused, the transcript (kept scrolled to the end while the reader is there) and the composer.
 */
import { useEffect, useLayoutEffect, useRef, type ReactElement } from 'react';
import type { ChatItem } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { EnforcementBadge, StateBadge } from '../../ui/Badges';
import { Composer } from './Composer';
import { Item } from './Items';

const NO_ITEMS: ChatItem[] = [];

function Transcript({ chatId, refused }: { chatId: string; refused: boolean }): ReactElement {
  const items = useAppStore((s) => s.items.byChat[chatId] ?? NO_ITEMS);
  const loaded = useAppStore((s) => s.items.loaded[chatId] === true);
  const ref = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  });
  useEffect(() => {
    atEnd.current = true;
  }, [chatId]);

  const onScroll = (): void => {
    const el = ref.current;
    if (el) atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  return (
    <div className="transcript" ref={ref} onScroll={onScroll} data-testid="transcript">
      {items.length === 0 && !refused && <div className="empty">{loaded ? 'No messages yet. Say what you need.' : 'Loading…'}</div>}
      {items.map((item) => (
        <Item key={item.id} item={item} />
      ))}
    </div>
  );
}

/** The chat with id `chatId`. */
export function ChatPane({ chatId }: { chatId: string }): ReactElement {
  const session = useSession();
  const chat = useAppStore((s) => s.chats.byId[chatId]);
  const profile = useAppStore((s) => (chat ? s.chats.profiles[chat.profile] : undefined));
  if (!chat) return <div className="pane empty">This chat is gone.</div>;

  return (
    <div className="pane" data-testid="chat-pane" data-chat-id={chat.id}>
      <header className="pane-head">
        <button type="button" className="btn link back" onClick={() => session.select(null)} aria-label="Back to the chats">
          ‹ Chats
        </button>
        <div className="pane-title">
          <strong>{chat.profile}</strong>
          <StateBadge state={chat.state} />
          <EnforcementBadge enforcement={chat.enforcement} sandboxed={profile?.sandboxed} state={chat.state} />
          {chat.queued > 0 && <span className="badge queued">{chat.queued} queued</span>}
        </div>
        {(chat.state === 'working' || chat.state === 'needs-you') && (
          <button type="button" className="btn small" data-testid="stop-button" onClick={() => void session.interrupt(chat.id)}>
            Stop
          </button>
        )}
      </header>
      {profile && (
        <div className="pane-sub meta" title={profile.cwd}>
          <code>{profile.cwd}</code> · {profile.permissionMode}
          {profile.model ? ` · ${profile.model}` : ''}
        </div>
      )}
      {chat.refusal && (
        <div className="refusal" data-testid="refusal" role="alert">
          <strong>This agent was not started.</strong>
          <div>{chat.refusal}</div>
        </div>
      )}
      <Transcript chatId={chat.id} refused={chat.state === 'refused'} />
      <Composer chat={chat} />
    </div>
  );
}
