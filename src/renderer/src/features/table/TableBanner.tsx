/**
 * "The table changed": shown at the top of the window while the table on disk differs from the accepted
 * one (an edit by hand, or by an agent that can write the workspace). Review opens the field diff.
 */
import type { ReactElement } from 'react';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { bannerLine } from './describe';

/** The banner, or nothing when the table on disk is the accepted one. */
export function TableBanner(): ReactElement | null {
  const session = useSession();
  const differs = useAppStore((s) => s.table.differs);
  const count = useAppStore((s) => s.table.count);
  const broken = useAppStore((s) => s.table.view?.error != null && s.table.view.differs);
  const reviewing = useAppStore((s) => s.panel.kind === 'table');
  if (!differs) return null;
  return (
    <div className="banner warn table-banner" data-testid="table-banner" role="status">
      <span>{bannerLine(count, broken)}</span>
      {!reviewing && (
        <button type="button" className="btn small" data-testid="table-review" onClick={() => session.reviewTable()}>
          Review
        </button>
      )}
    </div>
  );
}
