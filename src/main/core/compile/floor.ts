/**
 * The deny floor of a profile (seed-spec.md §2.2 items 1–3, product.md §2): the instance's private
 * files, credential locations under home, every CLI's transcripts and user config (for `~/.codex` and
 * `CODEX_HOME` alike), other profiles' folders, and the package-cache root. Pure.
 */
import { join } from 'node:path';
import { isWithin } from '../instance/paths';
import type { TableProblem } from '../table/errors';
import type { ResolvedProfile } from '../table/load';
import type { CompileFacts, FsRule } from './facts';

/** Credential folders under home (seed-spec.md §1.2 HOME_PRIVATE). */
export const HOME_PRIVATE_DIRS = ['.ssh', '.aws', '.gnupg', '.config/gh', '.config/gcloud', '.docker', '.kube', '.password-store'];
/** macOS-only credential folders under home (left out elsewhere, where they do not exist). */
export const HOME_PRIVATE_DIRS_MACOS = ['Library/Keychains', 'Library/Cookies', 'Library/Messages', 'Library/Mail'];
/** Credential files under home (seed-spec.md §1.2 HOME_PRIVATE). */
export const HOME_PRIVATE_FILES = [
  '.netrc', '.git-credentials', '.npmrc', '.pypirc', '.pgpass', '.vault-token', '.zsh_history', '.bash_history',
  '.pi/agent/auth.json', '.grok/auth.json', '.codex/auth.json',
];
/** Codex's login, transcripts and user config, inside `~/.codex` and `CODEX_HOME` (seed-spec.md §2.2 item 2). */
export const CODEX_STORES = ['auth.json', 'sessions', 'archived_sessions', 'memories', 'history.jsonl', 'session_index.jsonl', 'config.toml'];
/** Other CLIs' transcripts and user config under home (seed-spec.md §2.2 item 2 `cliStores`). */
export const OTHER_CLI_STORES = [
  '.claude/projects', '.claude/file-history', '.claude/paste-cache', '.claude/history.jsonl', '.claude.json',
  '.grok/sessions', '.grok/config.toml', '.pi/agent/sessions',
];
/** Private files and folders of the instance, relative to the state folder (never liftable). */
export const STATE_PRIVATE = ['env', 'api.token', 'sessions.json', 'compiled', 'audit.jsonl'];

/** Entries of the lists above that are folders (their settings.json rule ends in `/**`). */
const FOLDERS = new Set([
  ...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS, 'sessions', 'archived_sessions', 'memories', 'compiled',
  '.claude/projects', '.claude/file-history', '.claude/paste-cache', '.grok/sessions', '.pi/agent/sessions',
]);

/** The floor of one profile, with the warnings compile shows about it (key path + fix). */
export interface Floor {
  rules: FsRule[];
  warnings: TableProblem[];
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/**
 * The deny rules of `profile` given all `profiles` of the table (seed-spec.md §2.2 items 1–3, in
 * that order). A credential entry is lifted (dropped, with a warning) when one of the profile's
 * add_dirs is that path or lies inside it; a wider add_dir does not lift it. Another profile's folder
 * is denied unless it contains or lies inside this profile's reach (its cwd, an add_dir, or a folder
 * in `extraReach`, e.g. its allowed directory capabilities): then it is left out with a warning. The
 * cache root is denied; the profile's own cache (a deeper write entry) is added by codexProfile.ts.
 */
export function floorRules(profile: ResolvedProfile, profiles: Record<string, ResolvedProfile>, facts: CompileFacts, extraReach: readonly string[] = []): Floor {
  const rules: FsRule[] = [];
  const warnings: TableProblem[] = [];
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', profile.name, ...rest];
  for (const rel of STATE_PRIVATE) rules.push({ path: join(facts.stateDir, rel), access: 'deny', source: "Angelia's private state", folder: FOLDERS.has(rel) });
  rules.push({ path: join(facts.stateDir, 'cache', 'codex'), access: 'deny', source: "other profiles' package caches", folder: true });

  const credentials: FsRule[] = [];
  const homeDirs = facts.platform === 'darwin' ? [...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS] : HOME_PRIVATE_DIRS;
  for (const rel of [...homeDirs, ...HOME_PRIVATE_FILES]) credentials.push({ path: join(facts.home, rel), access: 'deny', source: 'credential location', folder: FOLDERS.has(rel) });
  for (const codexHome of unique([join(facts.home, '.codex'), facts.codexHome])) {
    for (const rel of CODEX_STORES) credentials.push({ path: join(codexHome, rel), access: 'deny', source: "Codex's login, transcripts or user config", folder: FOLDERS.has(rel) });
  }
  for (const rel of OTHER_CLI_STORES) credentials.push({ path: join(facts.home, rel), access: 'deny', source: "another CLI's transcripts or config", folder: FOLDERS.has(rel) });
  const seen = new Set<string>();
  for (const rule of credentials) {
    if (seen.has(rule.path)) continue;
    seen.add(rule.path);
    const i = profile.addDirs.findIndex((dir) => isWithin(dir, rule.path));
    if (i >= 0) {
      warnings.push({ path: at('add_dirs', i), message: `${profile.addDirs[i]} lifts the floor entry ${rule.path} (${rule.source}): the agent may read and write it`, fix: 'remove it from add_dirs unless the agent must hold that credential' });
    } else rules.push(rule);
  }

  const reach = [profile.cwd, ...profile.addDirs, ...extraReach];
  for (const other of Object.values(profiles)) {
    if (other.name === profile.name) continue;
    const overlap = reach.find((r) => isWithin(other.cwd, r) || isWithin(r, other.cwd));
    if (overlap) {
      warnings.push({ path: at('cwd'), message: `profile ${other.name}'s folder ${other.cwd} overlaps this profile's reach ${overlap}, so it is not denied; nested profile folders share their files`, fix: `move one of the folders so that neither holds the other` });
    } else {
      rules.push({ path: other.cwd, access: 'deny', source: `profile ${other.name}'s folder`, folder: true });
    }
  }

  for (const rule of rules) {
    if (isWithin(profile.cwd, rule.path)) warnings.push({ path: at('cwd'), message: `this profile's folder ${profile.cwd} lies inside the denied ${rule.path} (${rule.source}); the agent cannot use its own folder`, fix: 'move the profile\'s folder out of that location' });
    profile.addDirs.forEach((dir, i) => {
      if (dir !== profile.cwd && isWithin(dir, rule.path)) warnings.push({ path: at('add_dirs', i), message: `${dir} lies inside the denied ${rule.path} (${rule.source}); it stays denied`, fix: 'remove it from add_dirs' });
    });
  }
  return { rules, warnings };
}
