/**
 * "Changes of this turn": over the chat pane, every file the turn touched with its +/− counts and unified
 * diff (each file folds to its header on a click), the totals, "Copy patch" and "Save patch", and a tab
 * "Against HEAD" when the chat's folder is a git repository (`chats:headDiff`). The lines are one virtual
 * list (react-virtuoso): a 20 000-line diff keeps only the rows in view in the DOM. Every line is React
 * text, never HTML. Opened from a turn end (TurnChangesButton); shapes: src/shared/turnDiff.ts.
 */
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { DiffView, FileDiff, HeadDiffView, TurnDiffView } from '../../../../shared/turnDiff';
import { useSession } from '../../api/session';
import { diffRows, fileLines, patchFileName, patchText, STATUS_WORD, totalsText, type DiffRow } from './diffRows';
import { useOpenDiff } from './openDiff';
import { copyText, saveText } from './savePatch';
import './turnDiff.css';

/** The view of chat `chatId` when it is the one open, else nothing (mounted by the chat pane). */
export function TurnDiffHost({ chatId }: { chatId: string }): ReactElement | null {
  const open = useOpenDiff((s) => s.open);
  const close = useOpenDiff((s) => s.close);
  if (!open || open.chatId !== chatId) return null;
  return <TurnDiffDialog key={`${open.chatId}:${open.turnId ?? ''}`} chatId={open.chatId} turnId={open.turnId} onClose={close} />;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ok'; value: T };

/** The dialog: loads the turn's diff and the HEAD diff, shows one of them. */
export function TurnDiffDialog({ chatId, turnId, onClose }: { chatId: string; turnId: string | null; onClose: () => void }): ReactElement {
  const session = useSession();
  const [turn, setTurn] = useState<Loaded<TurnDiffView>>({ state: 'loading' });
  const [head, setHead] = useState<Loaded<HeadDiffView>>({ state: 'loading' });
  const [tab, setTab] = useState<'turn' | 'head'>('turn');
  useEffect(() => {
    let live = true;
    void session.turnDiff(chatId, turnId).then((r) => live && setTurn(r.ok ? { state: 'ok', value: r.value } : { state: 'failed', message: r.error.message }));
    void session.headDiff(chatId).then((r) => live && setHead(r.ok ? { state: 'ok', value: r.value } : { state: 'failed', message: r.error.message }));
    return () => {
      live = false;
    };
  }, [session, chatId, turnId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // No HEAD tab outside a git repository; the tab says why when git is missing or refused.
  const headTab = head.state === 'ok' && head.value.state === 'not-a-repo' ? null : head;
  const shown = tab === 'head' && headTab ? headTab : turn;
  const fileName = tab === 'head' ? patchFileName(chatId, 'head') : patchFileName(chatId, { turnId: turn.state === 'ok' ? turn.value.turnId : turnId });
  return (
    <div className="diff-dialog" role="dialog" aria-modal="true" aria-label="Changes of this turn" data-testid="turn-diff">
      <header className="diff-head">
        <strong>Changes of this turn</strong>
        <div className="diff-tabs" role="tablist">
          <button type="button" role="tab" className="btn small" aria-selected={tab === 'turn'} data-testid="diff-tab-turn" onClick={() => setTab('turn')}>
            This turn
          </button>
          {headTab && (
            <button type="button" role="tab" className="btn small" aria-selected={tab === 'head'} data-testid="diff-tab-head" onClick={() => setTab('head')}>
              Against HEAD
            </button>
          )}
        </div>
        <button type="button" className="btn small diff-close" data-testid="diff-close" aria-label="Close" onClick={onClose}>
          Close
        </button>
      </header>
      {/* Keyed by tab: folds and the copy status belong to one diff. */}
      <Shown key={tab} loaded={shown} fileName={fileName} />
    </div>
  );
}

/** The diff of the tab shown, once loaded (or why not). */
function Shown({ loaded, fileName }: { loaded: Loaded<TurnDiffView> | Loaded<HeadDiffView>; fileName: string }): ReactElement {
  if (loaded.state === 'loading') return <div className="diff-empty">Loading…</div>;
  if (loaded.state === 'failed') return <div className="diff-empty refusal">{loaded.message}</div>;
  const v = loaded.value;
  if ('state' in v) {
    if (v.state === 'unavailable')
      return (
        <div className="diff-empty refusal" data-testid="diff-unavailable">
          {v.message}
        </div>
      );
    if (v.state === 'not-a-repo') return <div className="diff-empty">{v.folder} is not in a git repository.</div>;
    return (
      <DiffBody view={v} fileName={fileName} caption={`${v.root}`}>
        {v.untracked.length > 0 && (
          <div className="diff-untracked" data-testid="diff-untracked">
            Untracked (not in the diff): {v.untracked.join(', ')}
            {v.untrackedMore > 0 ? ` and ${v.untrackedMore} more` : ''}
          </div>
        )}
      </DiffBody>
    );
  }
  const caption = v.source === 'fileChanges' ? "rebuilt from the turn's file changes" : v.running ? 'the turn is still running' : null;
  if (!v.files.length)
    return (
      <div className="diff-empty" data-testid="diff-none">
        No file changed through Codex's edits in this turn (a command that writes files shows in "Against HEAD").
      </div>
    );
  return <DiffBody view={v} fileName={fileName} caption={caption} />;
}

/** Totals, the actions, and the files as one virtual list. */
function DiffBody({
  view,
  fileName,
  caption,
  children,
}: {
  view: DiffView;
  fileName: string;
  caption: string | null;
  children?: ReactElement | false;
}): ReactElement {
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [copied, setCopied] = useState<string | null>(null);
  const lines = useMemo(() => view.files.map((f) => fileLines(f.patch)), [view.files]);
  const linesOf = useCallback((i: number) => lines[i] ?? [], [lines]);
  const rows = useMemo(() => diffRows(view.files, collapsed, linesOf), [view.files, collapsed, linesOf]);
  const toggle = useCallback((i: number) => {
    setCollapsed((s) => {
      const next = new Set(s);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  }, []);
  const patch = useMemo(() => patchText(view.files), [view.files]);
  return (
    <>
      <div className="diff-bar">
        <span className="diff-totals" data-testid="diff-totals">
          {totalsText(view.totals)}
        </span>
        {caption && <span className="diff-caption">{caption}</span>}
        <span className="diff-actions">
          <button type="button" className="btn small" onClick={() => setCollapsed(new Set(view.files.map((_f, i) => i)))}>
            Fold all
          </button>
          <button type="button" className="btn small" onClick={() => setCollapsed(new Set())}>
            Unfold all
          </button>
          <button
            type="button"
            className="btn small"
            data-testid="diff-copy"
            disabled={!patch}
            onClick={() => void copyText(patch).then((ok) => setCopied(ok ? 'Copied.' : 'Could not copy.'))}
          >
            Copy patch
          </button>
          <button type="button" className="btn small" data-testid="diff-save" disabled={!patch} onClick={() => saveText(fileName, patch)}>
            Save patch
          </button>
          {copied && (
            <span className="diff-copied" role="status">
              {copied}
            </span>
          )}
        </span>
      </div>
      {view.note && (
        <div className="diff-note" data-testid="diff-note">
          {view.note}
        </div>
      )}
      {children}
      <Virtuoso
        className="diff-list"
        data-testid="diff-list"
        data={rows}
        computeItemKey={(_i, r) => (r.kind === 'file' ? `f${r.file}` : `l${r.file}:${r.line}`)}
        itemContent={(_i, r) => <Row row={r} file={view.files[r.file]} collapsed={collapsed.has(r.file)} onToggle={toggle} />}
        increaseViewportBy={200}
      />
    </>
  );
}

/** One row: a file's header (a button folding it) or one line of its diff. */
function Row({
  row,
  file,
  collapsed,
  onToggle,
}: {
  row: DiffRow;
  file: FileDiff | undefined;
  collapsed: boolean;
  onToggle: (i: number) => void;
}): ReactElement {
  if (row.kind === 'line') {
    return (
      <div className={`diff-line diff-${row.type}`} data-testid="diff-line">
        {row.text || ' '}
      </div>
    );
  }
  if (!file) return <div />;
  return (
    <button type="button" className="diff-file" data-testid="diff-file" data-path={file.path} aria-expanded={!collapsed} onClick={() => onToggle(row.file)}>
      <span className="diff-fold">{collapsed ? '▸' : '▾'}</span>
      <code className="diff-path">{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</code>
      <span className={`diff-status diff-status-${file.status}`}>{STATUS_WORD[file.status]}</span>
      <span className="diff-counts">
        <span className="diff-plus">+{file.added}</span> <span className="diff-minus">−{file.removed}</span>
      </span>
      {!file.patch && file.status !== 'binary' && <span className="diff-caption">(lines not kept)</span>}
    </button>
  );
}

/** The button on a turn end that opens the view: "2 files, +3 −1". */
export function TurnChangesButton({ chatId, turnId, totals }: { chatId: string; turnId: string; totals: DiffView['totals'] }): ReactElement {
  const show = useOpenDiff((s) => s.show);
  return (
    <button type="button" className="btn link turn-changes" data-testid="turn-changes" title="Changes of this turn" onClick={() => show({ chatId, turnId })}>
      Changes: {totalsText(totals).replace(/^(\d+ files?), /, '$1 ')}
    </button>
  );
}
