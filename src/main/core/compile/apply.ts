/**
 * Applies a compile plan (plan.ts), the effectful half of compile: skill links, then
 * `.claude/settings.json`, CLAUDE.md's managed block, `_common/`, the compiled record, and last the
 * launch guard in `<state>/compiled/` (mode 600, folder 700). Files inside the profile go through the
 * no-follow writer (safeWrite.ts) below the profile's real path; the guard and `_common/` are never
 * reached through a link either. A plan with a conflict is never applied.
 */
import { chmod, mkdir, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { GUARD_DIR_MODE, GUARD_FILE_MODE, guardText } from './guardFile';
import type { ProfilePlan } from './plan';
import { RECORD_REL } from './record';
import { ensurePlainFolder, replaceAtomically, safeLink, safeUnlink, safeWrite } from './safeWrite';
import { SKILLS_REL } from './skillLinks';

/**
 * Writes `plan`. Returns the absolute paths written or changed, in order. Throws AppFailure
 * `compile-conflict` when the plan has a conflict, `compile-moved` when the profile's folder no longer
 * has the real path the plan was made for, `unsafe-path` from the writer, or the fs error.
 */
export async function applyPlan(plan: ProfilePlan): Promise<string[]> {
  if (plan.conflicts.length > 0) {
    throw new AppFailure({
      code: 'compile-conflict',
      message: `profile ${plan.profile} has ${plan.conflicts.length} conflict(s): ${plan.conflicts[0]}`,
      where: plan.cwd,
      fix: 'resolve each CONFLICT line of angelia compile, then compile again',
    });
  }
  const real = await realpath(plan.cwd);
  if (real !== plan.realCwd) {
    throw new AppFailure({
      code: 'compile-moved',
      message: `the profile's folder now resolves to ${real}, not ${plan.realCwd} as when the plan was made`,
      where: plan.cwd,
      fix: 'run angelia compile again',
    });
  }
  const done: string[] = [];
  for (const op of plan.links) {
    const rel = `${SKILLS_REL}/${op.name}`;
    if (op.op === 'remove') {
      await safeUnlink(real, rel);
      done.push(join(real, rel));
    } else {
      done.push(await safeLink(real, rel, op.text ?? '', op.op === 'create' ? 'absent' : 'link'));
    }
  }
  const record = plan.writes.find((w) => w.rel === RECORD_REL);
  for (const w of plan.writes) {
    if (w !== record) done.push(await safeWrite(real, w.rel, w.text, { mode: w.mode, createDirs: true }));
  }
  for (const dir of plan.mkdirs) {
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
    await ensurePlainFolder(dir, 0o700, 'the folder every profile that is not isolated shares');
  }
  if (record) done.push(await safeWrite(real, record.rel, record.text, { mode: record.mode, createDirs: true }));
  if (plan.guardChanged || record) {
    // Never through a link: `<state>/compiled` must be a plain folder, and the guard replaces whatever
    // name is there by a rename (a link is replaced, not followed).
    const dir = dirname(plan.guardPath);
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
    await ensurePlainFolder(dir, GUARD_DIR_MODE, 'the launch guards');
    await chmod(dir, GUARD_DIR_MODE);
    await replaceAtomically(plan.guardPath, guardText(plan.guard), GUARD_FILE_MODE);
    done.push(plan.guardPath);
  }
  return done;
}
