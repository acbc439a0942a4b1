/**
 * `angelia init`: creates an instance (README "Use it"): the state folder and its private
 * folders (mode 700), the workspace, one starter profile `assistant` with a starter CLAUDE.md, and the
 * table `angelia.toml` describing it (with a comment on every field). Never overwrites a table.
 */
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { stringify } from 'smol-toml';
import { AppFailure } from '../../../shared/result';
import type { InstancePaths } from './paths';
import { isWithin } from './paths';

/** What `initInstance` made. */
export interface InitResult {
  /** The table written. */
  tableFile: string;
  /** The starter profile's folder. */
  profileDir: string;
  /** Every file and folder created (folders that already existed are not listed). */
  created: string[];
}

const STARTER_PROFILE = 'assistant';

const STARTER_CLAUDE_MD = `# Assistant

You are a general assistant working in this folder. Keep notes you want to remember in this file
(below this line) or in \`memory/\`.
`;

/** Encodes one `key = value` TOML line with smol-toml (never hand-quoted). */
function tomlLine(key: string, value: string | boolean | number): string {
  return stringify({ [key]: value }).trimEnd();
}

/**
 * The starter table's text: one profile `assistant` whose `cwd` is `cwdValue` (written relative to the
 * table's folder when it lies below it), mode `default`, sandbox on, and a comment on each field.
 */
export function starterTable(cwdValue: string): string {
  return [
    '# Angelia table: every profile is one Codex agent with its own folder and permissions.',
    '# Unknown keys are errors (a misspelt key must never silently fall back to a less safe value).',
    '',
    '[defaults]',
    '# Minutes an approval waits for an answer before it is declined.',
    tomlLine('permission_timeout_minutes', 10),
    '# Minutes without output after which a turn is stopped (0 = never); you are told at half time.',
    tomlLine('turn_stall_minutes', 60),
    '# Minutes an idle Codex process is kept before it exits (it resumes on the next message).',
    tomlLine('idle_exit_minutes', 30),
    '',
    `[profiles.${STARTER_PROFILE}]`,
    "# The profile's folder: the agent's working directory, writable by it. Relative paths are",
    "# resolved against this file's folder; `~` is your home folder. It must exist.",
    tomlLine('cwd', cwdValue),
    '# default / acceptEdits: the agent asks before doing more than its sandbox allows;',
    '# bypassPermissions: it never asks (the sandbox still holds); plan: read-only, never asks.',
    tomlLine('permission_mode', 'default'),
    "# Codex's OS sandbox. `false` gives the agent full access to your computer: avoid it.",
    tomlLine('sandbox', true),
    '# Extra folders the agent may write, e.g. add_dirs = ["~/projects/site"].',
    '# add_dirs = []',
    '# The model and reasoning effort (low, medium, high, xhigh, max); by default Codex chooses.',
    '# model = "gpt-5.5"',
    '# effort = "medium"',
    '# The Codex executable; by default the one bundled with Angelia.',
    '# bin = "/usr/local/bin/codex"',
    '',
  ].join('\n');
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

function tableExists(file: string): AppFailure {
  return new AppFailure({
    code: 'instance-exists',
    message: 'a table already exists; angelia init never overwrites it',
    where: file,
    fix: 'edit that table, or move it away and run angelia init again',
  });
}

/** Creates `dir` (and parents) with mode 700; records it in `created` when it did not exist. */
async function ensurePrivateDir(dir: string, created: string[]): Promise<void> {
  if (!(await exists(dir))) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    created.push(dir);
  }
  await chmod(dir, 0o700);
}

/**
 * Creates the instance at `paths`. Throws AppFailure `instance-exists` when the table file already
 * exists (nothing is changed then), and the fs error when a folder cannot be created. Folders that
 * exist are kept and forced to mode 700; an existing starter CLAUDE.md is kept.
 */
export async function initInstance(paths: InstancePaths): Promise<InitResult> {
  if (await exists(paths.tableFile)) throw tableExists(paths.tableFile);
  const created: string[] = [];
  for (const dir of [paths.stateDir, paths.workspace, paths.compiledDir, paths.cacheRoot, paths.logsDir]) {
    await ensurePrivateDir(dir, created);
  }
  const profileDir = join(paths.workspace, 'profiles', STARTER_PROFILE);
  await ensurePrivateDir(profileDir, created);
  const claudeMd = join(profileDir, 'CLAUDE.md');
  if (!(await exists(claudeMd))) {
    await writeFile(claudeMd, STARTER_CLAUDE_MD, { mode: 0o600, flag: 'wx' });
    created.push(claudeMd);
  }
  const tableDir = dirname(paths.tableFile);
  if (!(await exists(tableDir))) await mkdir(tableDir, { recursive: true, mode: 0o700 });
  const cwdValue = isWithin(profileDir, tableDir) ? relative(tableDir, profileDir) : profileDir;
  try {
    // O_EXCL: a table that appeared since the check above is still never overwritten.
    await writeFile(paths.tableFile, starterTable(cwdValue), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw tableExists(paths.tableFile);
    throw e;
  }
  created.push(paths.tableFile);
  return { tableFile: paths.tableFile, profileDir, created };
}
