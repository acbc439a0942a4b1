/**
 * Every session of one chat (`sessions:list`, newest first, paged as the list scrolls), virtualized
 * with react-virtuoso so hundreds of sessions keep only a window of rows in the DOM: the name or first
 * message, the first message under a name, created and updated dates, turns. A row opens the session
 * read-only (PastSession.tsx); Rename edits the name in place (`sessions:rename`); Archive / Unarchive
 * (`sessions:archive`); "Archived" shows only the archived ones. A filter box narrows the list with
 * `sessions:search` on this chat (names and messages).
 */
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { SessionSummary } from '../../../../shared/sessions';
import { useSession } from '../../api/session';
import { firstLine, sessionDate, sessionTitle, turnsText } from './describe';

const PAGE = 50;

function Row({
  s,
  onOpen,
  onChanged,
  onProblem,
}: {
  s: SessionSummary;
  onOpen: () => void;
  onChanged: (next: SessionSummary) => void;
  onProblem: (text: string | null) => void;
}): ReactElement {
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(s.name ?? '');
  const [busy, setBusy] = useState(false);
  const save = async (): Promise<void> => {
    const next = name.trim();
    if (!next || next === s.name) return setEditing(false);
    setBusy(true);
    const r = await session.renameSession(s.chatId, s.id, next);
    setBusy(false);
    if (r.ok) {
      onChanged(r.value);
      setEditing(false);
      onProblem(null);
    } else onProblem(`Could not rename: ${r.error.message}`);
  };
  const archive = async (): Promise<void> => {
    setBusy(true);
    const r = await session.archiveSession(s.chatId, s.id, !s.archived);
    setBusy(false);
    if (r.ok) {
      onChanged(r.value);
      onProblem(null);
    } else onProblem(`Could not ${s.archived ? 'unarchive' : 'archive'}: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
  };
  return (
    <div className={`past-row${s.active ? ' active' : ''}`} data-testid="past-row" data-session={s.id}>
      <div className="past-main">
        {editing ? (
          <form
            className="past-rename"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <input
              className="input"
              data-testid="past-rename-input"
              aria-label="Session name"
              value={name}
              maxLength={200}
              autoFocus
              disabled={busy}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.stopPropagation();
                  setEditing(false);
                }
              }}
            />
            <button type="submit" className="btn small" data-testid="past-rename-save" disabled={busy}>
              Save
            </button>
          </form>
        ) : (
          <button type="button" className="past-title" data-testid="past-open" onClick={onOpen} title="Open read-only">
            {sessionTitle(s)}
          </button>
        )}
        <div className="meta past-sub">
          {s.name && <span className="past-preview">{firstLine(s.preview)} · </span>}
          <span>
            {sessionDate(s.createdAt)} → {sessionDate(s.updatedAt)} · {turnsText(s.turns)}
          </span>
        </div>
      </div>
      {s.active && <span className="badge">current</span>}
      {s.archived && <span className="badge muted">archived</span>}
      {!editing && (
        <button type="button" className="btn small" data-testid="past-rename" disabled={busy} onClick={() => setEditing(true)}>
          Rename
        </button>
      )}
      <button type="button" className="btn small" data-testid="past-archive" disabled={busy} onClick={() => void archive()}>
        {s.archived ? 'Unarchive' : 'Archive'}
      </button>
    </div>
  );
}

/** The panel of every session of `chatId`. */
export function SessionBrowser({ chatId }: { chatId: string }): ReactElement {
  const session = useSession();
  const [archived, setArchived] = useState(false);
  const [rows, setRows] = useState<SessionSummary[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [filtered, setFiltered] = useState<SessionSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const loading = useRef(false);
  const generation = useRef(0);

  const load = useCallback(
    async (from: string | null, gen: number): Promise<void> => {
      if (loading.current) return;
      loading.current = true;
      const r = await session.listSessions({ chatId, archived, cursor: from, limit: PAGE });
      loading.current = false;
      if (gen !== generation.current) return;
      if (!r.ok) return setProblem(`Could not list the sessions: ${r.error.message}`);
      setRows((old) => (from === null ? r.value.sessions : [...old, ...r.value.sessions]));
      setCursor(r.value.nextCursor);
      setTotal(r.value.total);
    },
    [session, chatId, archived],
  );

  useEffect(() => {
    const gen = ++generation.current;
    loading.current = false;
    setRows([]);
    setCursor(null);
    setTotal(null);
    void load(null, gen);
  }, [load]);

  useEffect(() => {
    const text = filter.trim();
    if (!text) return setFiltered(null);
    let live = true;
    const t = setTimeout(() => {
      void session.searchSessions({ text, chatId, archived }).then((r) => {
        if (!live) return;
        if (r.ok) setFiltered(r.value.hits.map((h) => h.session));
        else setProblem(`Could not search: ${r.error.message}`);
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [filter, session, chatId, archived]);

  const changed = (next: SessionSummary): void => {
    const apply = (list: SessionSummary[]): SessionSummary[] =>
      next.archived !== archived ? list.filter((r) => r.id !== next.id) : list.map((r) => (r.id === next.id ? next : r));
    setRows(apply);
    setFiltered((f) => (f ? apply(f) : f));
    if (next.archived !== archived) setTotal((t) => (t === null ? t : t - 1));
  };

  const shown = filtered ?? rows;
  const count = filtered ? `${filtered.length} found` : total === null ? 'loading…' : `${total} session${total === 1 ? '' : 's'}`;
  return (
    <div className="pane panel sessions-browser" data-testid="session-browser" data-chat-id={chatId}>
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={() => session.closePanel()} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">Sessions of {chatId}</strong>
        <span className="meta" data-testid="past-count">
          {count}
        </span>
        <span className="spacer" />
        <label className="past-toggle">
          <input type="checkbox" data-testid="past-archived-toggle" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> Archived
        </label>
      </header>
      <div className="past-filter">
        <input
          className="input"
          type="search"
          data-testid="past-filter"
          placeholder="Filter by name or message…"
          aria-label="Filter sessions"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      {problem && (
        <div className="approval-note" data-testid="past-problem">
          {problem}
        </div>
      )}
      {total === 0 && !filtered && (
        <div className="meta past-empty">{archived ? 'No archived sessions.' : 'No sessions yet: the first message starts one.'}</div>
      )}
      {filtered && filtered.length === 0 && <div className="meta past-empty">No session of this chat matches.</div>}
      <Virtuoso
        className="past-list"
        data={shown}
        computeItemKey={(_, s) => s.id}
        endReached={() => {
          if (!filtered && cursor) void load(cursor, generation.current);
        }}
        itemContent={(_, s) => <Row s={s} onOpen={() => session.showPast(s.chatId, s.id, 'sessions')} onChanged={changed} onProblem={setProblem} />}
      />
    </div>
  );
}
