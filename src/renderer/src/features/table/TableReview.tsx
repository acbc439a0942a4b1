/**
 * The review of a changed table: the file, each field that differs from the accepted table (path,
 * before → after, kind), the reason when the table on disk does not load, and Accept (new starts use
 * it) or Discard (the accepted table is put back; the discarded text is kept as a backup).
 */
import type { ReactElement } from 'react';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { showValue } from '../profiles/draft';
import { CHANGE_LABEL, keyPath, type TableChange } from './describe';

function ChangeRow({ change }: { change: TableChange }): ReactElement {
  const showBefore = change.kind !== 'added' && change.kind !== 'item-added';
  const showAfter = change.kind !== 'removed' && change.kind !== 'item-removed';
  return (
    <tr data-testid="table-change" data-path={keyPath(change.path)} data-kind={change.kind}>
      <td className="pe-path">
        <code>{keyPath(change.path)}</code>
      </td>
      <td>
        <span className={`badge change-${change.kind}`}>{CHANGE_LABEL[change.kind]}</span>
      </td>
      <td className="change-values">
        {showBefore && <span className="diff-del">{showValue(change.before)}</span>}
        {showBefore && showAfter && ' → '}
        {showAfter && <span className="diff-add">{showValue(change.after)}</span>}
      </td>
    </tr>
  );
}

/** The review panel. */
export function TableReview(): ReactElement {
  const session = useSession();
  const table = useAppStore((s) => s.table);
  const view = table.view;
  const busy = table.busy !== null;
  const broken = view?.error ?? null;
  return (
    <div className="pane panel" data-testid="table-review-panel">
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={() => session.closePanel()} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">The table changed</strong>
        <span className="spacer" />
        <button type="button" className="btn small" data-testid="table-close" onClick={() => session.closePanel()}>
          Close
        </button>
      </header>
      <div className="panel-body">
        {!view && !table.error && <div className="empty">Comparing the table on disk with the accepted one…</div>}
        {table.error && (
          <div className="issue issue-error" data-testid="table-action-error" role="alert">
            {table.error.message}
            {table.error.fix ? ` — ${table.error.fix}` : ''}
          </div>
        )}
        {view && (
          <>
            <div className="meta panel-intro">
              <code>{view.tableFile}</code> against the accepted copy Angelia runs on. Accept: new chats and restarts use the table on disk. Discard: the
              accepted table is written back (the discarded text is kept as a backup).
            </div>
            {broken && (
              <div className="refusal" data-testid="table-load-error" role="alert">
                <strong>The table on disk does not load.</strong>
                {broken.message}
                {broken.where && (
                  <div>
                    at <code>{broken.where}</code>
                  </div>
                )}
                {broken.fix && <div>Fix: {broken.fix}</div>}
              </div>
            )}
            {!view.differs && (
              <div className="empty" data-testid="table-same">
                The table on disk is the accepted one: nothing to review.
              </div>
            )}
            {view.changes.length > 0 && (
              <table className="entries table-changes">
                <thead>
                  <tr>
                    <th>Field</th>
                    <th>Change</th>
                    <th>Before → after</th>
                  </tr>
                </thead>
                <tbody>
                  {view.changes.map((c, i) => (
                    <ChangeRow key={`${keyPath(c.path)}:${i}`} change={c} />
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </div>
      {view?.differs && (
        <footer className="editor-foot">
          <div className="editor-foot-status meta">
            {broken
              ? 'A table that does not load cannot be accepted; fix it on disk, or discard it.'
              : 'Accepting makes these changes the table agents run on.'}
          </div>
          <button type="button" className="btn" data-testid="table-discard" disabled={busy} onClick={() => void session.settleTable('discard')}>
            {table.busy === 'discard' ? 'Discarding…' : 'Discard'}
          </button>
          <button
            type="button"
            className="btn primary"
            data-testid="table-accept"
            disabled={busy || broken !== null}
            onClick={() => void session.settleTable('accept')}
          >
            {table.busy === 'accept' ? 'Accepting…' : 'Accept'}
          </button>
        </footer>
      )}
    </div>
  );
}
