/**
 * The sessions of one chat (`chats:sessions`, most recently used first): label, turns, when last used,
 * the active one marked. Resume sends `/resume <id>`, so the core switches and says so in the chat.
 * Reloaded when opened and whenever the chat's active session or its label changes.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { ChatView, SessionView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';

const NO_SESSIONS: SessionView[] = [];

/** When a session was last used, short and local ("14:02" today, else "3 Mar 14:02"). */
export function whenShort(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return d.toDateString() === now.toDateString() ? time : `${d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}

/** The sessions panel of `chat`, under its header. */
export function SessionsPanel({ chat, onClose }: { chat: ChatView; onClose: () => void }): ReactElement {
  const session = useSession();
  const list = useAppStore((s) => s.sessions.byChat[chat.id] ?? NO_SESSIONS);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    void session.sessions(chat.id).then((r) => setProblem(r.ok ? null : `Could not list the sessions: ${r.error.message}`));
  }, [session, chat.id, chat.sessionId, chat.label]);

  const resume = async (s: SessionView): Promise<void> => {
    const r = await session.send(chat.id, `/resume ${s.id}`);
    if (!r.ok) setProblem(`Could not resume: ${r.error.message}`);
    else onClose();
  };

  return (
    <div className="sessions-panel" data-testid="sessions-panel">
      <div className="sessions-head">
        <strong>Sessions</strong>
        <span className="meta">each a Codex thread; /new starts one</span>
        <span className="spacer" />
        <button type="button" className="btn link" data-testid="sessions-all" onClick={() => session.showSessions(chat.id)}>
          All sessions…
        </button>
        <button type="button" className="btn link" onClick={onClose}>
          Close
        </button>
      </div>
      {problem && <div className="approval-note">{problem}</div>}
      {list.length === 0 && !problem && <div className="meta">No sessions yet: the first message starts one.</div>}
      <ul className="sessions-list">
        {list.map((s) => (
          <li key={s.id} className={`session-row${s.active ? ' active' : ''}`} data-testid="session-row" data-active={s.active}>
            <span className="session-label">{s.label || '(no message yet)'}</span>
            <span className="meta">
              {s.turns} turn{s.turns === 1 ? '' : 's'} · {whenShort(s.lastUsedAt)}
            </span>
            {s.active ? (
              <span className="badge">active</span>
            ) : (
              <button type="button" className="btn small" data-testid="session-resume" onClick={() => void resume(s)}>
                Resume
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
