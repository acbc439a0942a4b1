/**
 * One past session, read-only (`sessions:open`: its turns read from Codex's record, nothing resumed):
 * its title, chat and dates over its transcript (the chat's own item views, virtualized), and "Resume
 * this session", which makes it the chat's current session as `/resume` does (unarchived first when
 * archived) and opens the chat. Back returns to the search or the chat's sessions.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { ChatItem } from '../../../../shared/contract';
import type { SessionSummary } from '../../../../shared/sessions';
import { useSession } from '../../api/session';
import { Item } from '../chat/Items';
import { sessionDate, sessionTitle, turnsText } from './describe';

/** The read-only view of `session` of `chatId`; Back goes to `from`. */
export function PastSession({ chatId, session: id, from }: { chatId: string; session: string; from: 'search' | 'sessions' }): ReactElement {
  const session = useSession();
  const [view, setView] = useState<{ session: SessionSummary; items: ChatItem[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [resuming, setResuming] = useState(false);

  useEffect(() => {
    let live = true;
    setView(null);
    void session.openSession(chatId, id).then((r) => {
      if (!live) return;
      if (r.ok) setView(r.value);
      else setProblem(`Could not open the session: ${r.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [session, chatId, id]);

  const back = (): void => (from === 'search' ? session.showSearch() : session.showSessions(chatId));
  const resume = async (): Promise<void> => {
    if (!view) return;
    setResuming(true);
    const r = await session.resumeSession(chatId, view.session.id, view.session.archived);
    setResuming(false);
    if (!r.ok) setProblem(`Could not resume: ${r.error.message}`);
  };
  const s = view?.session;
  return (
    <div className="pane panel past-session" data-testid="past-session" data-session={id}>
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={back} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">{s ? sessionTitle(s) : 'Opening…'}</strong>
        <span className="badge muted">read-only</span>
        <span className="spacer" />
        {s?.active ? (
          <span className="badge">current session</span>
        ) : (
          <button type="button" className="btn primary small" data-testid="past-resume" disabled={!s || resuming} onClick={() => void resume()}>
            Resume this session
          </button>
        )}
      </header>
      {s && (
        <div className="meta past-facts" data-testid="past-facts">
          {s.chatId} · started {sessionDate(s.createdAt)} · last {sessionDate(s.updatedAt)} · {turnsText(s.turns)}
          {s.archived ? ' · archived' : ''}
        </div>
      )}
      {problem && <div className="approval-note">{problem}</div>}
      {view && view.items.length === 0 && <div className="meta past-empty">Codex has no finished turn of this session.</div>}
      {view && (
        <Virtuoso
          className="past-transcript"
          data={view.items}
          computeItemKey={(_, item) => item.id}
          itemContent={(_, item) => (
            <div className="t-item">
              <Item item={item} chatId={chatId} />
            </div>
          )}
        />
      )}
    </div>
  );
}
