/**
 * A chat's folder against git's HEAD: `git diff HEAD -- .` in the profile's folder, and the untracked
 * files `git ls-files --others --exclude-standard` names there (which `git diff HEAD` leaves out); both
 * limited to the folder, paths from the repository's top. Each git run has a timeout and an output bound.
 *
 * Git runs through a `CommandRunner`: in Angelia, the profile's own sandbox (headSandbox.ts), so git and
 * whatever the repository's config makes it run read and write only what the agent could
 * (docs/security-model.md "Angelia's own commands in a profile's folder"). Defence in depth on top:
 * external diff and textconv drivers are off (`--no-ext-diff --no-textconv`), `core.fsmonitor` is forced
 * off, the pager is `cat` and optional locks are off on the command line (which wins over every config
 * file), Angelia's `GIT_*` variables are not passed, and a repository whose own config (scope local or
 * worktree) names a filter driver (`filter.*`) or includes other files (`include.*`, `includeIf.*`) is
 * refused with that reason: what it names could make the view differ from the files. The check and the
 * run are two steps; the sandbox, not this check, is the boundary. docs/architecture.md "A turn's
 * changes, measured".
 */
import type { BoundedRun, RunLimits } from '../../launch/sandboxRun';
import { MAX_UNTRACKED, type HeadDiffView } from '../../../../shared/turnDiff';
import { readDiff, sizeText } from './parse';

/** The largest `git diff HEAD` output read (bytes); past it git is stopped and only files and counts are shown. */
export const MAX_HEAD_DIFF_BYTES = 8 * 1024 * 1024;
/** How long one git run may take (ms). */
export const GIT_TIMEOUT_MS = 15_000;

/** What one git run gave. `missing`: no git on PATH. `cut`: stopped at the output bound. */
export type GitResult = BoundedRun;

/** Runs a command (argv) with limits: the profile's sandbox (launch/sandboxRun.ts `ProfileSandbox.run`). */
export type CommandRunner = (command: readonly string[], limits: RunLimits) => Promise<BoundedRun>;

/** Runs git with `args` in `cwd` (see `runGit`). */
export type GitRunner = (args: string[], opts: { cwd: string; maxBytes: number }) => Promise<GitResult>;

/** Options forced on every git run: nothing configured may run a program, page or write the index. */
const SAFE_CONFIG = [
  '--no-optional-locks',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.pager=cat',
  '-c',
  'core.quotePath=false',
  '-c',
  'color.ui=never',
  '-c',
  'diff.noprefix=false',
];

/**
 * Angelia's environment for git: without `GIT_*` (which could name another repository, config or program)
 * except `GIT_CEILING_DIRECTORIES` (it only stops the search for a repository), no prompt, no optional locks
 * (the index is never written), C messages. In a sandbox Codex passes the command only the names
 * compile/codexProfile.ts `commandEnvNames` lists (`LC_ALL` and `LANGUAGE` among them; the `GIT_*` ones are
 * also on git's command line).
 */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if ((!k.startsWith('GIT_') || k === 'GIT_CEILING_DIRECTORIES') && v !== undefined) out[k] = v;
  return { ...out, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', LANGUAGE: 'C' };
}

/** The first line of git's complaint. */
const firstLine = (s: string): string => s.trim().split('\n', 1)[0] ?? '';

/**
 * Git through `run`: `git <SAFE_CONFIG> <args>` with stdout read up to `maxBytes`, killed after `timeoutMs`.
 * Git not found is `missing`: exit 127 from a shell, or codex 0.169.0's sandbox (`codex sandbox`) failing
 * with "Failed to execvp git: No such file or directory" (exit 101, measured).
 */
export function gitRunner(run: CommandRunner, timeoutMs = GIT_TIMEOUT_MS): GitRunner {
  return async (args, { cwd, maxBytes }) => {
    const r = await run(['git', ...SAFE_CONFIG, ...args], { cwd, maxBytes, timeoutMs });
    const notFound = r.code === 127 || /Failed to execvp git: No such file or directory/.test(r.stderr);
    return notFound && !r.timedOut ? { ...r, missing: true } : r;
  };
}

/** Local or worktree config keys that make git run a program on the folder's files, or read config from elsewhere. */
const UNSAFE_KEY = /^(filter\.|include\.|includeif\.)/i;

/** Keys of `git config --list --show-scope -z` output (`scope\0key\nvalue\0` …) set in scope local or worktree that git must not honour. */
export function unsafeKeys(listing: string): string[] {
  const parts = listing.split('\0');
  const bad: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i] ?? '';
    const key = (parts[i + 1] ?? '').split('\n', 1)[0] ?? '';
    if ((scope === 'local' || scope === 'worktree') && UNSAFE_KEY.test(key) && !bad.includes(key)) bad.push(key);
  }
  return bad;
}

/** Why a git run gave nothing usable, as the window says it; null when it ran. */
function failure(r: GitResult, what: string): string | null {
  if (r.missing)
    return "git was not found on PATH: install git where the profile's sandbox can read it to see the folder against HEAD (Angelia runs `git diff HEAD` in that sandbox).";
  if (r.timedOut) return `git took too long (${what}, over ${GIT_TIMEOUT_MS / 1000} s); nothing to show.`;
  if (r.code !== 0 && !r.cut) return `git failed (${what}): ${firstLine(r.stderr) || `exit ${String(r.code)}`}`;
  return null;
}

/**
 * `folder` against git's HEAD (shared/turnDiff.ts `HeadDiffView`): `not-a-repo` when no git repository
 * holds it, `unavailable` with the reason when git is missing, refused or fails, else the diff (over
 * `MAX_HEAD_DIFF_BYTES`: files and counts of what was read) and the untracked files. Never throws.
 */
export async function headDiff(folder: string, run: GitRunner): Promise<HeadDiffView> {
  const small = { cwd: folder, maxBytes: 1024 * 1024 };
  const top = await run(['rev-parse', '--show-toplevel'], small);
  if (!top.missing && !top.timedOut && top.code !== 0 && /not a git repository/i.test(top.stderr)) return { state: 'not-a-repo', folder };
  const topFailed = failure(top, 'rev-parse');
  if (topFailed) return { state: 'unavailable', folder, message: topFailed };
  const root = top.stdout.trim();
  const config = await run(['config', '--list', '--show-scope', '-z'], small);
  const configFailed = failure(config, 'config --list');
  if (configFailed) return { state: 'unavailable', folder, message: configFailed };
  const bad = unsafeKeys(config.stdout);
  if (bad.length) {
    return {
      state: 'unavailable',
      folder,
      message: `The repository's own config sets ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ' …' : ''}: git would run or read what it names, which an agent may have written. Angelia does not run git here; use git in a terminal.`,
    };
  }
  const diff = await run(['diff', 'HEAD', '--no-ext-diff', '--no-textconv', '--no-color', '-M', '--src-prefix=a/', '--dst-prefix=b/', '--', '.'], {
    cwd: folder,
    maxBytes: MAX_HEAD_DIFF_BYTES,
  });
  if (!diff.timedOut && diff.code !== 0 && !diff.cut && /ambiguous argument 'HEAD'|bad revision 'HEAD'|unknown revision/i.test(diff.stderr)) {
    return { state: 'unavailable', folder, message: 'The repository has no commit yet, so there is no HEAD to compare with.' };
  }
  const diffFailed = failure(diff, 'diff HEAD');
  if (diffFailed) return { state: 'unavailable', folder, message: diffFailed };
  const untracked = await run(['ls-files', '--others', '--exclude-standard', '--full-name', '-z'], small);
  const names = untracked.code === 0 || untracked.cut ? untracked.stdout.split('\0').filter((n) => n.length > 0) : [];
  if (untracked.cut) names.pop();
  const read = readDiff(diff.stdout);
  const view = diff.cut
    ? {
        ...read,
        files: read.files.map((f) => ({ ...f, patch: '' })),
        clipped: true,
        note: `The diff against HEAD is over ${sizeText(MAX_HEAD_DIFF_BYTES)}, more than Angelia reads: the files and line counts of its first ${sizeText(MAX_HEAD_DIFF_BYTES)} are shown, not their lines. Use git in a terminal for the rest.`,
      }
    : read;
  return { state: 'ok', root, ...view, untracked: names.slice(0, MAX_UNTRACKED), untrackedMore: Math.max(0, names.length - MAX_UNTRACKED) };
}
