/**
 * Every problem the editor shows, placed next to the field it names: its own checks (with fix-its),
 * the preview's errors and warnings (by `TableIssue.path`), and a refused save (by its `where`).
 * Problems that name no field of this profile go to the general list above the Save button.
 */
import type { ProfilePreview } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/result';
import { fieldOfIssue, fieldOfWhere, indexOfIssue, indexOfWhere, type DraftField, type LocalIssue } from './draft';
import type { ShownIssue } from './fields';

/** The problems by field, and those of no field. */
export interface PlacedIssues {
  byField: Partial<Record<DraftField, ShownIssue[]>>;
  general: ShownIssue[];
}

/** Places the editor's own problems, the preview's and a failed save's. */
export function placeIssues(
  local: readonly LocalIssue[],
  preview: Pick<ProfilePreview, 'errors' | 'warnings'> | null,
  saveError: AppError | null,
): PlacedIssues {
  const out: PlacedIssues = { byField: {}, general: [] };
  const put = (field: DraftField | null, issue: ShownIssue): void => {
    if (field) (out.byField[field] ??= []).push(issue);
    else out.general.push(issue);
  };
  for (const l of local) put(l.field, { path: l.path, message: l.message, fix: l.fix, level: l.level, fixValue: l.fixValue, index: l.index });
  if (preview) {
    for (const e of preview.errors) put(fieldOfIssue(e), { ...e, level: 'error', index: indexOfIssue(e) });
    for (const w of preview.warnings) put(fieldOfIssue(w), { ...w, level: 'warning', index: indexOfIssue(w) });
  }
  if (saveError) {
    const field = fieldOfWhere(saveError.where);
    put(field, {
      path: saveError.where ? [saveError.where] : [],
      message: `Not saved: ${saveError.message}`,
      fix: saveError.fix ?? '',
      level: 'error',
      index: field ? indexOfWhere(saveError.where) : null,
    });
  }
  return out;
}

/** A field's problems that are not about one row of a list. */
export const fieldLevel = (issues: readonly ShownIssue[] | undefined): ShownIssue[] => (issues ?? []).filter((i) => i.index === null || i.index === undefined);
