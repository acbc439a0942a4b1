/**
 * The live preview of a draft (`profiles:preview`): the problems that name no single field, the
 * compile plan, and the effective permission table Codex's sandbox would get. Nothing is written.
 */
import type { ReactElement } from 'react';
import type { ProfilePreview } from '../../../../shared/contract';
import type { PreviewState } from '../../store/editor';
import { PolicyTable } from '../policy/PolicyTable';
import { IssueLines, type ShownIssue } from './fields';

/** The compile plan, one line each, marked by kind (+ add, - remove, ~ change, CONFLICT, note). */
export function PlanLines({ plan, testid = 'plan' }: { plan: ProfilePreview['plan']; testid?: string }): ReactElement {
  if (plan.length === 0) return <div className="meta">Nothing to write: the compiled files are up to date.</div>;
  return (
    <div className="plan" data-testid={testid}>
      {plan.map((l, i) => (
        <div
          key={i}
          className={`plan-line plan-${l.kind === 'CONFLICT' ? 'conflict' : l.kind === 'note' ? 'note' : l.kind === '+' ? 'add' : l.kind === '-' ? 'del' : 'change'}`}
          data-testid="plan-line"
        >
          {l.kind === 'note' ? '' : `${l.kind} `}
          {l.text}
        </div>
      ))}
    </div>
  );
}

/** Why there is no fresh preview, or null when there is one. */
function previewNote(preview: PreviewState, blocked: boolean): string | null {
  if (blocked) return 'The preview waits until the fields marked in red are fixed.';
  if (preview.error) return `The preview failed: ${preview.error.message}${preview.error.fix ? ` — ${preview.error.fix}` : ''}`;
  if (!preview.value) return 'Checking…';
  return null;
}

/** The preview section of the editor. `general`: problems of no single field. `blocked`: the editor's own checks failed. */
export function PreviewPanel({ preview, general, blocked }: { preview: PreviewState; general: readonly ShownIssue[]; blocked: boolean }): ReactElement {
  const note = previewNote(preview, blocked);
  const value = preview.value;
  return (
    <section className="editor-section preview" data-testid="preview" data-waiting={preview.waiting} aria-busy={preview.waiting}>
      <h3>
        What saving does {preview.waiting && <span className="meta">(checking…)</span>}
        {value && !value.valid && (
          <span className="badge state-error" data-testid="preview-invalid">
            would not load
          </span>
        )}
      </h3>
      {note && (
        <div className={`meta preview-note${preview.error ? ' bad' : ''}`} data-testid="preview-note">
          {note}
        </div>
      )}
      <IssueLines issues={general} />
      {value && (
        <>
          <h4>Compile plan</h4>
          <PlanLines plan={value.plan} />
          <h4>Effective permission table</h4>
          <PolicyTable policy={value} />
        </>
      )}
    </section>
  );
}
