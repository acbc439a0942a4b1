/**
 * The deny floor of a profile (docs/security-model.md "The deny floor stays"): the instance's private
 * files, credential locations under home, every CLI's transcripts and user config (for `~/.codex` and
 * `CODEX_HOME` alike), other profiles' folders, and the package-cache root. Pure.
 *
 * Not the boundary of a sandboxed command: that is what the profile GRANTS (codexProfile.ts; nothing
 * else exists in its sandbox, docs/security-model.md "Filesystem: private by default"), so a store on
 * no list here is private too. The floor is kept as defense in depth for what runs outside the sandbox
 * once the user approves it (an escalated command keeps the deny entries), for deny entries inside a
 * grant (another profile's folder inside a read_dir), and for the settings.json rules.
 */
import { join } from 'node:path';
import { isWithin, PRIVATE_DIR, PRIVATE_FILES } from '../instance/paths';
import type { TableProblem } from '../table/errors';
import type { ResolvedProfile } from '../table/load';
import type { CompileFacts, FsRule } from './facts';

/** Credential folders under home, denied to every profile (HOME_PRIVATE). */
export const HOME_PRIVATE_DIRS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.docker',
  '.kube',
  '.password-store',
  // Added after the first list was reviewed: Azure CLI tokens, Terraform Cloud tokens.
  '.azure',
  '.terraform.d',
];
/** macOS-only credential folders under home (left out elsewhere, where they do not exist). */
export const HOME_PRIVATE_DIRS_MACOS = ['Library/Keychains', 'Library/Cookies', 'Library/Messages', 'Library/Mail'];
/** Credential files under home, denied to every profile (HOME_PRIVATE). */
export const HOME_PRIVATE_FILES = [
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.vault-token',
  '.zsh_history',
  '.bash_history',
  '.pi/agent/auth.json',
  '.grok/auth.json',
  '.codex/auth.json',
  // Added after the first list was reviewed: crates.io, RubyGems and Maven credentials,
  // and the REPL histories that keep pasted secrets like the shells' do.
  '.cargo/credentials.toml',
  '.cargo/credentials',
  '.gem/credentials',
  '.m2/settings.xml',
  '.python_history',
  '.node_repl_history',
];
/** Codex's login, transcripts and user config, inside `~/.codex` and `CODEX_HOME` (docs/security-model.md). */
export const CODEX_STORES = ['auth.json', 'sessions', 'archived_sessions', 'memories', 'history.jsonl', 'session_index.jsonl', 'config.toml'];
/**
 * The carve-outs of a Codex home (`~/.codex`, `CODEX_HOME`) that commands need, never denied: the
 * helper links Codex puts on PATH and reads itself (`tmp/arg0-linux/codex-arg0…`: `apply_patch`,
 * `applypatch`, `codex-linux-sandbox`; codex 0.169.0 adds that folder as a readable root of every
 * command, measured: a shell `apply_patch` fails with "command not found" when it is denied, since a
 * read entry inside a deny entry does not hold), and `skills` (granted by codexProfile.ts
 * `readGrants`: skills installed for every profile, whose scripts commands run). Nothing else of a
 * Codex home is granted; what `codexHomeScanRules` denies besides is for escalated commands.
 */
export const CODEX_READABLE = ['tmp', 'skills'];
/** Other CLIs' transcripts and user config under home (docs/security-model.md). */
export const OTHER_CLI_STORES = [
  '.claude/projects',
  '.claude/file-history',
  '.claude/paste-cache',
  '.claude/history.jsonl',
  '.claude.json',
  '.grok/sessions',
  '.grok/config.toml',
  '.pi/agent/sessions',
];
/**
 * Every file and folder Angelia keeps in its state folder, relative to it (never liftable), whether or
 * not it exists yet: the user's secrets (`env`), `private/` (the chats, their backup and lock, the
 * Codex children, the audit log and the API token: instance/paths.ts PRIVATE_DIR), approval records,
 * exports, logs, media, compiled guards and the chats' mailboxes (each agent is given a write entry on
 * its own chat's mailbox inside the denied `mailbox/`, launch/mailbox.ts), and the old top-level names
 * of the files now in `private/` (PRIVATE_FILES: a legacy file may still lie there, e.g. one an older
 * Angelia process wrote; instance/migrate.ts moves them). The package caches in `cache/codex` have
 * their own rule (all but the profile's own cache). Only `workspace/` is not private. Whatever else lies
 * in the state folder when an agent starts is denied as well (`stateScanRules`); a name that first
 * appears while the agent runs is denied from its next launch on (no glob: see `isTransient`).
 * The API socket is the one exception (STATE_SOCKET).
 *
 * A file Angelia writes itself belongs in a folder denied whole, never at the top under a named deny:
 * codex 0.169.0 denies a named file by bind-mounting over its inode when it builds a command's sandbox
 * (measured), so an atomic rewrite (a new inode renamed over the name) or a first creation after that
 * is readable to the running command, and renames over the name make sandbox builds fail
 * (instance/paths.ts PRIVATE_DIR has the numbers). `env` is the one named file left: the user writes it.
 */
export const STATE_PRIVATE: readonly string[] = [
  // The old names (PRIVATE_FILES) keep their places, so the rule order of earlier compiles is unchanged.
  'env',
  'api.token',
  'sessions.json',
  'sessions.json.bak',
  'compiled',
  'audit.jsonl',
  'approvals',
  'exports',
  'children.json',
  'logs',
  'media',
  'mailbox',
  PRIVATE_DIR,
];

/**
 * Names created directly in the state folder for a short while: `angelia verify`'s socket
 * `v-<8 hex>.sock` (verify/run.ts, alive for one verify run) and, from an Angelia older than `private/`
 * still running on the same state folder, `sessions.json.lock` and write-file-atomic's temporary file
 * `<name>.<decimal murmurhash>` beside a file of PRIVATE_FILES (write-file-atomic 5, `getTmpname`;
 * today both are made inside `private/`, which is denied whole). Never denied, neither by name nor by
 * the launch scan, and no `<state>/*` glob covers them, because codex 0.169.0 on Linux fails the whole command
 * when a denied path vanishes while it builds the sandbox (measured with ~1000 creates+deletes/s at the
 * top of the state folder, 40–50 `codex sandbox` commands per case: a `<state>/*` glob failed 3/50
 * plain files, 6/40 folders with "error building bubblewrap command: Fatal error: failed to enumerate
 * unreadable glob paths under <state>: <entry>: No such file or directory", 11/40 atomic rewrites of
 * sessions.json with "bwrap: Can't bind mount … Unable to find … in mount table"; without the glob,
 * 0/40 for plain files, folders and the lock, while atomic rewrites of the named sessions.json at
 * that rate still failed 3/40 (10/40 in a later run, the other 29/40 reading the file): a deny of a
 * named file races a rename over it, independent of the glob; hence `private/`). The cost: a file that first appears at the top of the
 * state folder after a launch stays readable to that launch's commands, which is why nothing of
 * Angelia's own is written there any more. Folders that churn (private/, approvals/, mailbox/<hash>/,
 * compiled/) are denied whole and never raced (0/40).
 */
export function isTransient(name: string): boolean {
  if (name === 'sessions.json.lock' || /^v-[0-9a-f]{8}\.sock$/.test(name)) return true;
  const m = /^(.+)\.\d+$/.exec(name);
  return m !== null && (PRIVATE_FILES as readonly string[]).includes(m[1]!);
}

/** The one entry of the state folder an agent may reach (its table, profile folders, `_shared/`, …). */
export const STATE_PUBLIC = 'workspace';

/**
 * `<state>/cache`: not denied whole, because codex 0.169.0's bubblewrap cannot take a deny inside a
 * deny once an approved escalation drops the profile's own cache (a write entry) from below them
 * (measured: "Can't mkdir …: Read-only file system"); its only entry `codex/` is denied instead.
 */
export const STATE_CACHE = 'cache';

/**
 * `<state>/api.sock`, never denied by path: for an approved escalation codex 0.169.0 masks a denied path
 * that is missing at that moment with an empty regular file it creates on the host for the command's
 * duration (measured), and the API server refuses to start on a path that holds a file that is not a
 * socket. Denying it would add nothing: on Linux an agent's commands reach no Unix socket at all
 * (measured, see codexProfile.ts), and a launch grants none on macOS (launch/plan.ts `launchFacts`).
 */
export const STATE_SOCKET = 'api.sock';

/** Folders of STATE_PRIVATE: created before a launch (`ensureStateFolders`) and denied as folders. */
export const STATE_PRIVATE_FOLDERS = [PRIVATE_DIR, 'compiled', 'approvals', 'exports', 'logs', 'media', 'mailbox'];

/**
 * `<state>/bin`: holds only `angelia`, the launcher Angelia writes so that agents' commands can run the
 * `angelia` command (launch/agentCommand.ts; put first on the agent's PATH). Readable by agents (it names
 * the Node binary and Angelia's CLI file, nothing secret), writable by none; never denied by the state
 * scan.
 */
export const STATE_BIN = 'bin';

/** Entries of the lists above that are folders (their settings.json rule ends in `/**`). */
const FOLDERS = new Set([
  ...HOME_PRIVATE_DIRS,
  ...HOME_PRIVATE_DIRS_MACOS,
  'sessions',
  'archived_sessions',
  'memories',
  ...STATE_PRIVATE_FOLDERS,
  '.claude/projects',
  '.claude/file-history',
  '.claude/paste-cache',
  '.grok/sessions',
  '.pi/agent/sessions',
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
 * The deny rules of `profile` given all `profiles` of the table (private state, credentials and stores,
 * other profiles, in that order). A credential entry is lifted (dropped, with a warning) when one of the
 * profile's add_dirs is that path or lies inside it; a wider add_dir does not lift it. Another profile's
 * folder is denied unless it contains or lies inside this profile's reach (its cwd, an add_dir, or a
 * folder in `extraReach`, e.g. its allowed directory capabilities): then it is left out with a warning.
 * The cache root is denied; the profile's own cache (a deeper write entry) is added by codexProfile.ts.
 */
export function floorRules(
  profile: ResolvedProfile,
  profiles: Record<string, ResolvedProfile>,
  facts: CompileFacts,
  extraReach: readonly string[] = [],
): Floor {
  const rules: FsRule[] = [];
  const warnings: TableProblem[] = [];
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', profile.name, ...rest];
  for (const rel of STATE_PRIVATE) rules.push({ path: join(facts.stateDir, rel), access: 'deny', source: "Angelia's private state", folder: FOLDERS.has(rel) });
  rules.push({ path: join(facts.stateDir, STATE_CACHE, 'codex'), access: 'deny', source: "other profiles' package caches", folder: true });

  const credentials: FsRule[] = [];
  const homeDirs = facts.platform === 'darwin' ? [...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS] : HOME_PRIVATE_DIRS;
  for (const rel of [...homeDirs, ...HOME_PRIVATE_FILES])
    credentials.push({ path: join(facts.home, rel), access: 'deny', source: 'credential location', folder: FOLDERS.has(rel) });
  for (const codexHome of unique([join(facts.home, '.codex'), facts.codexHome])) {
    for (const rel of CODEX_STORES)
      credentials.push({ path: join(codexHome, rel), access: 'deny', source: "Codex's login, transcripts or user config", folder: FOLDERS.has(rel) });
  }
  for (const rel of OTHER_CLI_STORES)
    credentials.push({ path: join(facts.home, rel), access: 'deny', source: "another CLI's transcripts or config", folder: FOLDERS.has(rel) });
  const seen = new Set<string>();
  for (const rule of credentials) {
    if (seen.has(rule.path)) continue;
    seen.add(rule.path);
    const i = profile.addDirs.findIndex((dir) => isWithin(dir, rule.path));
    // A read_dir named in the table (not the starter set) lifts it the same way, for reading.
    const r = profile.readDirsStarter ? -1 : profile.readDirs.findIndex((dir) => isWithin(dir, rule.path));
    if (i >= 0) {
      warnings.push({
        path: at('add_dirs', i),
        message: `${profile.addDirs[i]} lifts the floor entry ${rule.path} (${rule.source}): the agent may read and write it`,
        fix: 'remove it from add_dirs unless the agent must hold that credential',
      });
    } else if (r >= 0) {
      warnings.push({
        path: at('read_dirs', r),
        message: `${profile.readDirs[r]} lifts the floor entry ${rule.path} (${rule.source}): the agent may read it`,
        fix: 'remove it from read_dirs unless the agent must read that credential',
      });
    } else rules.push(rule);
  }

  // What this profile writes, each with the field that gives it. A read_dir is not reach: another
  // profile's folder inside one stays denied (said below when the read_dir is in that folder).
  const reach: Array<[string, PropertyKey[]]> = [
    [profile.cwd, at('cwd')],
    ...profile.addDirs.map((d, i): [string, PropertyKey[]] => [d, at('add_dirs', i)]),
    ...extraReach.map((d): [string, PropertyKey[]] => [d, at('capabilities')]),
  ];
  for (const other of Object.values(profiles)) {
    if (other.name === profile.name) continue;
    const overlap = reach.find(([r]) => isWithin(other.cwd, r) || isWithin(r, other.cwd));
    if (overlap) {
      const [dir, key] = overlap;
      warnings.push({
        path: key,
        message: `profile ${other.name}'s folder ${other.cwd} overlaps this profile's reach ${dir}, so it is not denied; nested profile folders share their files (its CLAUDE.md, skills and launch files included)`,
        fix: `move one of the folders so that neither holds the other`,
      });
    } else {
      rules.push({ path: other.cwd, access: 'deny', source: `profile ${other.name}'s folder`, folder: true });
      const r = profile.readDirsStarter ? -1 : profile.readDirs.findIndex((d) => isWithin(d, other.cwd));
      if (r >= 0)
        warnings.push({
          path: at('read_dirs', r),
          message: `${profile.readDirs[r]} lies in profile ${other.name}'s folder ${other.cwd}, which stays denied to this profile: it is not readable`,
          fix: "remove it from read_dirs (another profile's folder is never given for reading)",
        });
    }
  }

  for (const rule of rules) {
    if (isWithin(profile.cwd, rule.path))
      warnings.push({
        path: at('cwd'),
        message: `this profile's folder ${profile.cwd} lies inside the denied ${rule.path} (${rule.source}); the agent cannot use its own folder`,
        fix: "move the profile's folder out of that location",
      });
    profile.addDirs.forEach((dir, i) => {
      if (dir !== profile.cwd && isWithin(dir, rule.path))
        warnings.push({
          path: at('add_dirs', i),
          message: `${dir} lies inside the denied ${rule.path} (${rule.source}); it stays denied`,
          fix: 'remove it from add_dirs',
        });
    });
  }
  return { rules, warnings };
}

/**
 * Deny rules for what lies in each Codex home at launch (`facts.codexHomeEntries`) beyond CODEX_STORES:
 * Codex's SQLite stores (every profile's threads, first messages and logs: `state_5.sqlite`,
 * `thread_history_1.sqlite`, `logs_2.sqlite` in codex 0.169.0), their `-wal`/`-shm` companions (denied
 * by name even when absent at launch, since Codex opens them after), `log/`, `rules/`,
 * `shell_snapshots/`, and whatever later Codex versions add; CODEX_READABLE is not denied. Defense in
 * depth for escalated commands only: a sandboxed command reads nothing of a Codex home but the
 * carve-outs, present and future files alike, because nothing else there is granted (a file Codex
 * creates after the launch is not denied by name, yet not readable either; measured with a fresh
 * CODEX_HOME, test/integration/private-codex-home.test.ts). A whole-folder deny is not possible: the
 * carve-outs inside it would be denied too. A Codex home inside the profile's reach (`reach`) is left
 * alone (compile refuses that, codexProfile.ts `refuseReachOverPrivate`). SQLite journals (`-journal`)
 * are skipped as transient.
 */
export function codexHomeScanRules(facts: CompileFacts, reach: readonly string[]): FsRule[] {
  const rules: FsRule[] = [];
  const fixed = new Set([...CODEX_STORES, ...CODEX_READABLE]);
  for (const [home, names] of Object.entries(facts.codexHomeEntries ?? {})) {
    if (reach.some((r) => isWithin(r, home))) continue;
    const add = (name: string): void => {
      rules.push({
        path: join(home, name),
        access: 'deny',
        source: "Codex's state: every profile's threads, logs and settings",
        folder: !/\.(sqlite|sqlite-wal|sqlite-shm|json|jsonl|toml|lock)$/.test(name),
      });
    };
    for (const name of names) {
      if (fixed.has(name) || name.includes('/') || name === '' || name === '.' || name === '..' || name.endsWith('-journal')) continue;
      add(name);
      if (name.endsWith('.sqlite')) for (const side of ['-wal', '-shm']) if (!names.includes(name + side)) add(name + side);
    }
  }
  return rules;
}

/**
 * Deny rules for what `facts.stateEntries` found in the state folder that STATE_PRIVATE does not name
 * (a file a newer Angelia, a tool or the user put there): everything in the state folder but
 * `workspace/`, `cache/` (STATE_CACHE), `bin/` (STATE_BIN) and the API socket (STATE_SOCKET) is private. Not part of the policy (the launch guard and settings.json hold STATE_PRIVATE
 * only, so a file that comes and goes never changes what compile wrote): codexProfile.ts adds these to
 * the permission profile of each launch. An entry holding one of `reach` (the profile's folder or a
 * folder it writes) is left out with a warning, since the agent could not use that folder otherwise.
 */
export function stateScanRules(profile: ResolvedProfile, facts: CompileFacts, reach: readonly string[]): Floor {
  const rules: FsRule[] = [];
  const warnings: TableProblem[] = [];
  const known = new Set([STATE_PUBLIC, STATE_CACHE, STATE_SOCKET, STATE_BIN, ...STATE_PRIVATE]);
  for (const name of facts.stateEntries ?? []) {
    if (known.has(name) || isTransient(name) || name.includes('/') || name === '.' || name === '..' || name === '') continue;
    const path = join(facts.stateDir, name);
    const inside = reach.find((r) => isWithin(r, path));
    if (inside) {
      warnings.push({
        path: ['profiles', profile.name, 'cwd'],
        message: `${inside} lies in Angelia's state folder outside workspace/ (in ${path}), so ${path} is not denied to this profile`,
        fix: `move the folder into ${join(facts.stateDir, STATE_PUBLIC)}`,
      });
    } else {
      rules.push({ path, access: 'deny', source: "Angelia's private state", folder: true });
    }
  }
  return { rules, warnings };
}
