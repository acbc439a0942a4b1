/**
 * Load-time warnings of the table (shown by `angelia check-config`; none of the
 * chat-platform ones): a skill or directory path that is missing, a skill folder without SKILL.md, a
 * skill kept outside the workspace, one profile folder inside another's, and `sandbox = false`; plus a
 * folder given as a link (Codex's sandbox applies the rule to the link's target). Each
 * names the full key path and the fix. Never fatal. Reads the disk (stat) only.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isWithin } from '../instance/paths';
import type { TableProblem } from './errors';
import type { LoadedTable } from './types';

async function kindOf(path: string): Promise<'dir' | 'file' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

/** A warning when `path` is a link (Codex binds and rules the target, not the link), else null. */
async function linkWarning(path: string, at: PropertyKey[]): Promise<TableProblem | null> {
  const isLink = await lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  if (!isLink) return null;
  const target = await realpath(path).catch(() => null);
  return {
    path: at,
    message: `${path} is a link${target ? ` to ${target}` : ' whose target is missing'}; Codex's sandbox applies the rule to the target, not to the link`,
    fix: target ? `write the target itself: ${target}` : 'point it at an existing folder',
  };
}

async function capabilityWarnings(table: Pick<LoadedTable, 'file' | 'capabilities'>): Promise<TableProblem[]> {
  const out: TableProblem[] = [];
  const workspace = dirname(table.file);
  for (const cap of Object.values(table.capabilities)) {
    if (cap.kind !== 'skill' && cap.kind !== 'directory') continue;
    const at = ['capabilities', cap.name, 'path'];
    const link = await linkWarning(cap.path, at);
    if (link) out.push(link);
    const kind = await kindOf(cap.path);
    if (kind !== 'dir') {
      const what = cap.kind === 'skill' ? 'a skill is a folder holding SKILL.md' : 'the folder must exist to be given or denied';
      out.push({
        path: at,
        message: `${cap.path} ${kind === 'missing' ? 'does not exist' : 'is not a folder'}; ${what}`,
        fix: 'create the folder or correct path',
      });
      continue;
    }
    if (cap.kind === 'skill') {
      if ((await kindOf(join(cap.path, 'SKILL.md'))) !== 'file') {
        out.push({ path: at, message: `${cap.path} has no SKILL.md, so Codex will not load it as a skill`, fix: 'add SKILL.md to the folder or correct path' });
      }
      if (!isWithin(cap.path, workspace)) {
        out.push({
          path: at,
          message: `the skill ${cap.path} is kept outside the workspace ${workspace}: it is not in its git history and profiles with shared_write cannot maintain it`,
          fix: `move it to ${join(workspace, '_capabilities', 'skills', cap.name)} and set path = "_capabilities/skills/${cap.name}"`,
        });
      }
    }
  }
  return out;
}

function profileWarnings(table: Pick<LoadedTable, 'profiles'>): TableProblem[] {
  const out: TableProblem[] = [];
  const profiles = Object.values(table.profiles);
  for (const p of profiles) {
    for (const q of profiles) {
      if (p.name !== q.name && p.cwd !== q.cwd && isWithin(p.cwd, q.cwd)) {
        out.push({
          path: ['profiles', p.name, 'cwd'],
          message: `${p.cwd} lies inside profile ${q.name}'s folder ${q.cwd}; nested profile folders share their files (neither is denied to the other)`,
          fix: `move one of the two folders so that neither holds the other`,
        });
      } else if (p.name < q.name && p.cwd === q.cwd) {
        out.push({
          path: ['profiles', q.name, 'cwd'],
          message: `profiles ${p.name} and ${q.name} share the folder ${p.cwd}, so they share every file`,
          fix: 'give each profile its own folder',
        });
      }
    }
    if (!p.sandbox) {
      out.push({
        path: ['profiles', p.name, 'sandbox'],
        message: `sandbox = false: profile ${p.name} runs with full access; its deny rules bind nothing, and in every mode it runs commands without asking`,
        fix: "remove sandbox = false (Codex's sandbox is on by default)",
      });
    }
  }
  return out;
}

async function addDirLinks(table: Pick<LoadedTable, 'profiles'>): Promise<TableProblem[]> {
  const out: TableProblem[] = [];
  for (const p of Object.values(table.profiles)) {
    for (const [i, dir] of p.addDirs.entries()) {
      const w = await linkWarning(dir, ['profiles', p.name, 'add_dirs', i]);
      if (w) out.push(w);
    }
  }
  return out;
}

/** The warnings of a resolved table (see the module comment), capabilities first, then profiles. */
export async function tableWarnings(table: Pick<LoadedTable, 'file' | 'capabilities' | 'profiles'>): Promise<TableProblem[]> {
  return [...(await capabilityWarnings(table)), ...profileWarnings(table), ...(await addDirLinks(table))];
}
