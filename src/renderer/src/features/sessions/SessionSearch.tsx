/**
 * The search over every chat's sessions (`sessions:search`: names and messages, case-insensitive),
 * opened with Ctrl/Cmd+K or the header's Search: results newest first, each with its chat, its title,
 * its dates and the matching line with the match marked. Enter or a click opens the session read-only
 * (PastSession.tsx); ↑/↓ move between results. "Archived too" searches the archived sessions as well.
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { SessionHit } from '../../../../shared/sessions';
import { useSession } from '../../api/session';
import { sessionDate, sessionTitle, splitLine } from './describe';

/** The last search typed, shown again when the panel comes back (Back from a result). */
let lastText = '';

/** The search panel. */
export function SessionSearch(): ReactElement {
  const session = useSession();
  const [text, setText] = useState(lastText);
  const [withArchived, setWithArchived] = useState(false);
  const [hits, setHits] = useState<SessionHit[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [current, setCurrent] = useState(0);
  const list = useRef<VirtuosoHandle>(null);

  useEffect(() => {
    lastText = text;
    const term = text.trim();
    if (!term) {
      setHits(null);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      setBusy(true);
      void session.searchSessions({ text: term, ...(withArchived ? {} : { archived: false }) }).then((r) => {
        if (!live) return;
        setBusy(false);
        if (!r.ok) return setProblem(`Could not search: ${r.error.message}`);
        setProblem(null);
        setHits(r.value.hits);
        setTruncated(r.value.truncated);
        setCurrent(0);
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [text, withArchived, session]);

  const open = (h: SessionHit | undefined): void => {
    if (h) session.showPast(h.session.chatId, h.session.id, 'search');
  };
  const move = (by: number): void => {
    if (!hits?.length) return;
    const next = Math.max(0, Math.min(hits.length - 1, current + by));
    setCurrent(next);
    list.current?.scrollIntoView({ index: next });
  };

  return (
    <div className="pane panel session-search" data-testid="session-search">
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={() => session.closePanel()} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">Search past sessions</strong>
        <span className="spacer" />
        <label className="past-toggle">
          <input type="checkbox" data-testid="search-archived" checked={withArchived} onChange={(e) => setWithArchived(e.target.checked)} /> Archived too
        </label>
      </header>
      <div className="past-filter">
        <input
          className="input"
          type="search"
          data-testid="search-input"
          placeholder="Words in a session's name or messages, in every chat…"
          aria-label="Search past sessions"
          autoFocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            const act: Record<string, () => void> = {
              ArrowDown: () => move(1),
              ArrowUp: () => move(-1),
              Enter: () => open(hits?.[current]),
              Escape: () => session.closePanel(),
            };
            const run = act[e.key];
            if (run) {
              e.preventDefault();
              run();
            }
          }}
        />
      </div>
      {problem && <div className="approval-note">{problem}</div>}
      <div className="meta past-empty" data-testid="search-status">
        {!text.trim()
          ? 'Type to search every chat. Ctrl/Cmd+K opens this search from anywhere.'
          : busy && !hits
            ? 'Searching…'
            : hits
              ? `${hits.length}${truncated ? '+' : ''} session${hits.length === 1 ? '' : 's'} found`
              : ''}
      </div>
      {hits && hits.length > 0 && (
        <Virtuoso
          ref={list}
          className="past-list"
          data={hits}
          computeItemKey={(_, h) => `${h.session.chatId}/${h.session.id}`}
          itemContent={(i, h) => {
            const [before, match, after] = splitLine(h);
            return (
              <button
                type="button"
                className={`search-hit${i === current ? ' current' : ''}`}
                data-testid="search-hit"
                data-session={h.session.id}
                onMouseEnter={() => setCurrent(i)}
                onClick={() => open(h)}
              >
                <span className="search-hit-head">
                  <span className="badge">{h.session.chatId}</span>
                  <strong className="search-hit-title">{sessionTitle(h.session)}</strong>
                  {h.session.archived && <span className="badge muted">archived</span>}
                  <span className="spacer" />
                  <span className="meta">{sessionDate(h.session.updatedAt)}</span>
                </span>
                <span className="search-hit-line" data-testid="search-line">
                  <span className="meta">{h.where === 'name' ? 'name: ' : ''}</span>
                  {before}
                  {match && <mark>{match}</mark>}
                  {after}
                </span>
              </button>
            );
          }}
        />
      )}
    </div>
  );
}
