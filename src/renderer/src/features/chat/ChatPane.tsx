/**
 * The open chat: a header (the chat's name, state, enforcement, queue, what it is doing now, "paused
 * until …" at a usage limit, Sessions and Stop), a line with the session label, folder, mode, the model/effort in force and links to the
 * profile's editor and policy, the refusal when the agent was refused, the transcript (virtualized,
 * kept at the end while the reader is there) and the composer. Files dropped anywhere on the chat are
 * attached (`chats:attach`).
 */
import { useEffect, useRef, useState, type DragEvent, type ReactElement } from 'react';
import type { ChatView, ProfileView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { chatName } from '../../store/chats';
import { useAppStore } from '../../store/store';
import { ActivityBadge, EnforcementBadge, StateBadge } from '../../ui/Badges';
import { PausedLine } from '../usage/Meters';
import { Composer } from './Composer';
import { canStop, modelParts } from './describe';
import { SessionsPanel } from './SessionsPanel';
import { Transcript } from './Transcript';
import { TurnDiffHost } from '../turnDiff/TurnDiffView';

/** The line under the header: session label, folder, mode, and the model and effort in force. */
function SubLine({ chat, profile }: { chat: ChatView; profile: ProfileView | undefined }): ReactElement {
  const session = useSession();
  const parts = modelParts(chat, profile);
  return (
    <div className="pane-sub">
      <div className="pane-label" data-testid="session-label" title={chat.sessionId ? `session ${chat.sessionId}` : undefined}>
        {chat.label || <span className="meta">New session</span>}
      </div>
      <div className="meta pane-facts" title={profile?.cwd}>
        {profile && <code>{profile.cwd}</code>}
        {chat.mode ? (
          <span
            data-testid="mode-line"
            data-source={chat.mode.source}
            title={
              chat.mode.source === 'attested'
                ? `As attested when this chat's Codex started (${chat.mode.attestedAt ?? '?'})`
                : 'Nothing is in force now: what the accepted table applies at the next start'
            }
          >
            {' · '}
            {chat.mode.permissionMode ?? 'unknown mode'} · approval {chat.mode.approvalPolicy ?? 'unknown'}
            {chat.mode.source === 'next-start' && <span className="meta"> (next start)</span>}
          </span>
        ) : (
          profile && <> · {profile.permissionMode}</>
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
        <span className="profile-links">
          {' · '}
          <button type="button" className="btn link inline" data-testid="edit-profile" onClick={() => session.editProfile(chat.profile)}>
            Edit profile
          </button>
          {' · '}
          <button type="button" className="btn link inline" data-testid="open-policy" onClick={() => session.openPolicy(chat.profile)}>
            Policy
          </button>
        </span>
      </div>
    </div>
  );
}

const hasFiles = (e: DragEvent): boolean => Array.from(e.dataTransfer.types).includes('Files');

/**
 * While the chat's Codex runs with grants the table in force no longer gives (a profile saved or
 * accepted since it started): says so plainly, with Restart (`chats:restart` restarts it on the table
 * in force when nothing runs).
 */
function ProfileChanged({ chat }: { chat: ChatView }): ReactElement | null {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const text = chat.mode?.source === 'attested' ? chat.mode.tableChanged : null;
  if (!text) return null;
  const restart = async (): Promise<void> => {
    setBusy(true);
    setNote(null);
    const r = await session.restart(chat.id);
    setBusy(false);
    if (!r.ok) setNote(`Not restarted: ${r.error.message}`);
    else if (!r.value.started) setNote('Not restarted: see the chat for why.');
  };
  return (
    <div className="refusal profile-changed" data-testid="profile-changed" role="alert">
      <strong>{text}</strong>
      <div className="meta">Until then this chat keeps the mode, approval policy and sandbox shown above, as attested when it started.</div>
      <button type="button" className="btn small" data-testid="restart-to-apply" disabled={busy} onClick={() => void restart()}>
        {busy ? 'Restarting…' : 'Restart'}
      </button>
      {note && (
        <span className="meta" data-testid="restart-note">
          {' '}
          {note}
        </span>
      )}
    </div>
  );
}

/** Drag-and-drop of files onto the chat: the overlay while dragging, and the attach on drop. */
function useDrop(
  chatId: string,
  enabled: boolean,
): { over: boolean; handlers: Record<'onDragEnter' | 'onDragOver' | 'onDragLeave' | 'onDrop', (e: DragEvent) => void> } {
  const session = useSession();
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  useEffect(() => {
    depth.current = 0;
    setOver(false);
  }, [chatId]);
  return {
    over,
    handlers: {
      onDragEnter: (e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setOver(true);
      },
      onDragOver: (e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = enabled ? 'copy' : 'none';
      },
      onDragLeave: (e) => {
        if (!hasFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      },
      onDrop: (e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = Array.from(e.dataTransfer.files);
        if (enabled && files.length > 0) void session.attach(chatId, files);
      },
    },
  };
}

/**
 * Stop: interrupts the running turn, or cancels one still starting (the core drops the queue too). A
 * failure or "nothing was running" is said next to it.
 */
function StopButton({ chatId, starting }: { chatId: string; starting: boolean }): ReactElement {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const stop = async (): Promise<void> => {
    setBusy(true);
    setNote(null);
    const r = await session.interrupt(chatId);
    setBusy(false);
    if (!r.ok) setNote(`Not stopped: ${r.error.message}`);
  };
  return (
    <>
      {note && (
        <span className="meta stop-note" data-testid="stop-note" role="status">
          {note}
        </span>
      )}
      <button
        type="button"
        className="btn small"
        data-testid="stop-button"
        disabled={busy}
        title={starting ? 'Cancel the message before its turn starts, and drop the queue' : 'Stop the running turn and drop the queue'}
        onClick={() => void stop()}
      >
        Stop
      </button>
    </>
  );
}

/** The chat with id `chatId`. */
export function ChatPane({ chatId }: { chatId: string }): ReactElement {
  const session = useSession();
  const chat = useAppStore((s) => s.chats.byId[chatId]);
  const name = useAppStore((s) => chatName(s.chats, chatId));
  const profile = useAppStore((s) => (chat ? s.chats.profiles[chat.profile] : undefined));
  const connected = useAppStore((s) => s.connection === 'open');
  const [showSessions, setShowSessions] = useState(false);
  useEffect(() => setShowSessions(false), [chatId]);
  const canDrop = connected && chat !== undefined && chat.state !== 'refused';
  const drop = useDrop(chatId, canDrop);
  if (!chat) return <div className="pane empty">This chat is gone.</div>;

  return (
    <div className={`pane chat-pane${drop.over ? ' drop-over' : ''}`} data-testid="chat-pane" data-chat-id={chat.id} {...drop.handlers}>
      {drop.over && (
        <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
          {canDrop ? `Drop to put the files into ${chat.profile}'s .inbox/ (25 MB at most each)` : 'Files cannot be attached to this chat now.'}
        </div>
      )}
      <header className="pane-head">
        <button type="button" className="btn link back" onClick={() => session.select(null)} aria-label="Back to the chats">
          ‹ Chats
        </button>
        <div className="pane-title">
          <strong data-testid="chat-name">{name}</strong>
          <StateBadge state={chat.state} />
          <EnforcementBadge enforcement={chat.enforcement} sandboxed={profile?.sandboxed} state={chat.state} mode={chat.mode} />
          {chat.queued > 0 && (
            <span className="badge queued" data-testid="queued-badge">
              {chat.queued} queued
            </span>
          )}
          <ActivityBadge activity={chat.activity} />
          <PausedLine pausedUntil={chat.pausedUntil} where="chat" onTryNow={() => void session.resumeUsage()} />
        </div>
        <button type="button" className="btn small" data-testid="sessions-button" aria-expanded={showSessions} onClick={() => setShowSessions((v) => !v)}>
          Sessions
        </button>
        {canStop(chat) && <StopButton chatId={chat.id} starting={chat.state === 'starting'} />}
      </header>
      <SubLine chat={chat} profile={profile} />
      <ProfileChanged chat={chat} />
      {showSessions && <SessionsPanel chat={chat} onClose={() => setShowSessions(false)} />}
      {chat.refusal && (
        <div className="refusal" data-testid="refusal" role="alert">
          <strong>This agent was not started.</strong>
          <div>{chat.refusal}</div>
        </div>
      )}
      <Transcript key={`transcript:${chat.id}`} chat={chat} />
      <TurnDiffHost chatId={chat.id} />
      <Composer key={chat.id} chat={chat} />
    </div>
  );
}
