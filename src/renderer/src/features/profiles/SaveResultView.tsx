/**
 * What a save did: the table file written (comments and layout kept), the backup of the previous
 * version, the plan applied, and the sandbox probes run with the new flags.
 */
import type { ReactElement } from 'react';
import type { SaveResult } from '../../../../shared/contract';
import { ProbeTable } from '../policy/ProbeTable';
import { PlanLines } from './PreviewPanel';

/** The result of a save (or a create). */
export function SaveResultView({ result, created }: { result: SaveResult; created: boolean }): ReactElement {
  return (
    <section className="editor-section save-result" data-testid="save-result" role="status">
      <h3 className="saved-title">
        ✓ {created ? 'Created' : 'Saved'} <code>{result.profile}</code>
      </h3>
      <div className="meta">
        Written to <code data-testid="save-table-file">{result.tableFile}</code>, accepted and compiled; new chats start with it.
      </div>
      <div className="meta" data-testid="save-backup">
        {result.backupFile ? (
          <>
            The previous table is kept as <code>{result.backupFile}</code>.
          </>
        ) : (
          'There was no previous table to keep.'
        )}
      </div>
      <h4>Plan applied</h4>
      <PlanLines plan={result.preview.plan} testid="save-plan" />
      <h4>Sandbox check</h4>
      {result.verify ? <ProbeTable verify={result.verify} /> : <div className="meta">The probes did not run; the policy inspector can run them.</div>}
    </section>
  );
}
