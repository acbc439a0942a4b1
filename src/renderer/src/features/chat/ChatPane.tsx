/**
 * The open chat: a header (the chat's name, state, enforcement, queue, what it is doing now, Sessions
 * and Stop), a line with the session label, folder, mode and the model/effort in force, the refusal
 * when the agent was refused, the transcript (kept scrolled to the end while the reader is there) and
 * the composer.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import type { ChatItem, ChatView, ProfileView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { chatName } from '../../store/chats';
import { useAppStore } from '../../store/store';
import { ActivityBadge, EnforcementBadge, StateBadge } from '../../ui/Badges';
import { Composer } from './Composer';
import { modelParts, restartableErrorId, turnRunning } from './describe';
import { Item } from './Items';
import { SessionsPanel } from './SessionsPanel';

const NO_ITEMS: ChatItem[] = [];

function Transcript({ chat }: { chat: ChatView }): ReactElement {
  const chatId = chat.id;
  const items = useAppStore((s) => s.items.byChat[chatId] ?? NO_ITEMS);
  const loaded = useAppStore((s) => s.items.loaded[chatId] === true);
  const ref = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const restartable = restartableErrorId(items, chat.state);

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
      {items.length === 0 && chat.state !== 'refused' && <div className="empty">{loaded ? 'No messages yet. Say what you need, or type / for commands.' : 'Loading…'}</div>}
      {items.map((item) => (
        <Item key={item.id} item={item} chatId={chatId} canRestart={item.id === restartable} />
      ))}
    </div>
  );
}

/** The line under the header: session label, folder, mode, and the model and effort in force. */
function SubLine({ chat, profile }: { chat: ChatView; profile: ProfileView | undefined }): ReactElement {
  const parts = modelParts(chat, profile);
  return (
    <div className="pane-sub">
      <div className="pane-label" data-testid="session-label" title={chat.sessionId ? `session ${chat.sessionId}` : undefined}>
        {chat.label || <span className="meta">New session</span>}
      </div>
      <div className="meta pane-facts" title={profile?.cwd}>
        {profile && (
          <>
            <code>{profile.cwd}</code> · {profile.permissionMode}
          </>
        )}
        {parts.length > 0 && (
          <span data-testid="model-line">
            {parts.map((p) => (
              <span key={p.label} className={`setting${p.thisSession ? ' override' : ''}`} data-setting={p.label}>
                {' · '}
                {p.label === 'effort' ? 'effort ' : ''}
                <strong>{p.value}</strong>
                {p.thisSession && <span className="this-session"> (this session)</span>}
              </span>
            ))}
          </span>
        )}
      </div>
    </div>
  );
}

/** The chat with id `chatId`. */
export function ChatPane({ chatId }: { chatId: string }): ReactElement {
  const session = useSession();
  const chat = useAppStore((s) => s.chats.byId[chatId]);
  const name = useAppStore((s) => chatName(s.chats, chatId));
  const profile = useAppStore((s) => (chat ? s.chats.profiles[chat.profile] : undefined));
  const [showSessions, setShowSessions] = useState(false);
  useEffect(() => setShowSessions(false), [chatId]);
  if (!chat) return <div className="pane empty">This chat is gone.</div>;

  return (
    <div className="pane" data-testid="chat-pane" data-chat-id={chat.id}>
      <header className="pane-head">
        <button type="button" className="btn link back" onClick={() => session.select(null)} aria-label="Back to the chats">
          ‹ Chats
        </button>
        <div className="pane-title">
          <strong data-testid="chat-name">{name}</strong>
          <StateBadge state={chat.state} />
          <EnforcementBadge enforcement={chat.enforcement} sandboxed={profile?.sandboxed} state={chat.state} />
          {chat.queued > 0 && (
            <span className="badge queued" data-testid="queued-badge">
              {chat.queued} queued
            </span>
          )}
          <ActivityBadge activity={chat.activity} />
        </div>
        <button type="button" className="btn small" data-testid="sessions-button" aria-expanded={showSessions} onClick={() => setShowSessions((v) => !v)}>
          Sessions
        </button>
        {turnRunning(chat) && (
          <button type="button" className="btn small" data-testid="stop-button" onClick={() => void session.interrupt(chat.id)}>
            Stop
          </button>
        )}
      </header>
      <SubLine chat={chat} profile={profile} />
      {showSessions && <SessionsPanel chat={chat} onClose={() => setShowSessions(false)} />}
      {chat.refusal && (
        <div className="refusal" data-testid="refusal" role="alert">
          <strong>This agent was not started.</strong>
          <div>{chat.refusal}</div>
        </div>
      )}
      <Transcript chat={chat} />
      <Composer key={chat.id} chat={chat} />
    </div>
  );
}
