/**
 * What a start prepares on disk before Codex is spawned (docs/architecture.md flow (a) step 7), in the
 * order planLaunch (plan.ts) needs it: the private folders of the state folder, the Codex home, the
 * chat token, the chat's mailbox with its identity file (mailbox.ts), the `angelia` launcher
 * (agentCommand.ts), and, once the launch is compiled, the profile's package cache and the sandbox's
 * mount points. Every folder is made never through a symbolic link (compile/safeWrite.ts); a link where
 * Angelia keeps its own folder refuses the start (AppFailure `refused`) with the same message and fix.
 *
 * Why the private folders exist before a start: for an approved escalation, codex 0.169.0 on Linux masks
 * a denied path that does not exist by creating an empty read-only FILE at that path on the host for as
 * long as the command runs (measured; removed afterwards). Were `exports/` missing then, Angelia's own
 * `mkdir exports` (an `/export` during that command) would fail with EEXIST; were `private/` missing,
 * the first write of the sessions store, the children record or the audit log would fail the same way.
 */
import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { chatToken, ensureOwnerToken } from '../api/tokens';
import { CACHE_SUBDIRS, cacheTmpDir } from '../compile/cache';
import { STATE_PRIVATE_FOLDERS } from '../compile/floor';
import { ensurePlainFolder } from '../compile/safeWrite';
import type { InstancePaths } from '../instance/paths';
import { writeAgentLauncher } from './agentCommand';
import { denyMountPoints, ensureMountPoints } from './denyMountPoints';
import { ensureMailbox, mailboxDirFor } from './mailbox';

/**
 * Creates each missing folder of STATE_PRIVATE_FOLDERS (compile/floor.ts: private, compiled, approvals,
 * exports, logs, media, mailbox) in `stateDir`, mode 700 (existing ones are left as they are), so that
 * each is denied as the folder it is; never through a symbolic link (docs/security-model.md "Grants are
 * checked by real path, at compile and at every start"). Throws AppFailure `unsafe-path` when one is a
 * link or a file, or the fs error when one cannot be created.
 */
export async function ensureStateFolders(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  for (const rel of STATE_PRIVATE_FOLDERS) await ensurePlainFolder(join(stateDir, rel), 0o700, "Angelia's private state");
}

/**
 * Creates the Codex home `codexHome` (mode 700) when nothing is at that path, before a start or a
 * verify: Angelia always gives Codex `CODEX_HOME`, and codex 0.169.0 refuses to start when that folder
 * is missing ("CODEX_HOME points to …, but that path does not exist"), where on its own it would make
 * `~/.codex` itself. Whatever is there already (a folder, or a link a user keeps it behind) is left as
 * it is; nothing is written inside. Throws the fs error (e.g. its parent is missing).
 */
export async function ensureCodexHome(codexHome: string): Promise<void> {
  const there = await lstat(codexHome).then(
    () => true,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
  );
  // mkdir never follows a link at its last component: one made in between fails with EEXIST, left as it is.
  if (!there) await mkdir(codexHome, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
}

/**
 * Creates `cacheDir` (`<state>/cache/codex/<hash>`, compile/cache.ts `cacheDirFor`) and its sub-folders,
 * mode 700, before a launch (Codex ignores a writable entry whose folder does not exist — measured on
 * 0.169.0), never through a link: `<state>/cache`, `cache/codex` and the cache folder itself must be
 * plain folders (AppFailure `unsafe-path` otherwise); a sub-folder the agent replaced (it may write its
 * cache) by a link or a file is removed, not followed, and made again. Throws the fs error.
 */
export async function ensureCacheDirs(cacheDir: string): Promise<void> {
  const codex = dirname(cacheDir);
  const cache = dirname(codex);
  await mkdir(dirname(cache), { recursive: true, mode: 0o700 });
  for (const dir of [cache, codex, cacheDir]) await ensurePlainFolder(dir, 0o700, "the agents' package caches");
  for (const sub of CACHE_SUBDIRS) {
    const path = join(cacheDir, sub);
    const s = await lstat(path).catch(() => null);
    if (s !== null && !s.isDirectory()) await unlink(path);
    await ensurePlainFolder(path, 0o700, "the agent's package cache");
  }
}

/**
 * The mount points Codex's Linux sandbox needs in every writable root (bubblewrap keeps these paths
 * read-only), measured on codex 0.169.0: `.agents`, `.codex`, `.git`, and `.aws` (from the credential
 * floor's deny of `~/.aws`).
 */
export const SANDBOX_PLACEHOLDERS = ['.agents', '.aws', '.codex', '.git'] as const;

/**
 * The placeholders made as an empty read-only FILE rather than a folder: `.codex`. A `.codex` folder
 * in the profile's folder makes codex 0.169.0 take it for a project with a config folder and record its
 * trust in the user's Codex config at the first writable start (measured: docs/security-model.md "The
 * user's Codex config is never written"), and a trusted project's `.codex/` folder is a config layer
 * with hooks and exec policies. A file is as good a mount point (0 of 40 concurrent starts failed) and can
 * hold nothing.
 */
export const PLACEHOLDER_FILES: ReadonlySet<string> = new Set(['.codex']);

/**
 * Creates the missing `SANDBOX_PLACEHOLDERS` (PLACEHOLDER_FILES as an empty file, mode 444; the others as
 * an empty folder, mode 755 as Codex makes them) in each of `roots` that is a folder, before a launch.
 * Without them, sandboxes started at the same moment in a shared root (`_common/`, a shared add_dir, two
 * chats of one profile) raced to create them: measured with 20 concurrent starts, most failed with
 * "bwrap: Can't mount tmpfs on …/_common/.agents: No such file or directory" (docs/benchmarks.md,
 * many-agents); 8 concurrent starts sharing an add_dir: without them 1 to 4 of 8 failed (4 runs), with
 * them (`.codex` a file) 0 of 8 (5 runs). Only adds what is missing, and never through a link: an existing entry of that name
 * (folder, file or link; an older Angelia's `.codex` folder too) is left as it is. Never throws.
 */
export async function ensureSandboxPlaceholders(roots: readonly string[]): Promise<void> {
  for (const root of roots) {
    for (const name of SANDBOX_PLACEHOLDERS) {
      try {
        // `wx` (O_CREAT|O_EXCL) and mkdir both fail on an existing entry, a symbolic link included.
        if (PLACEHOLDER_FILES.has(name)) await writeFile(join(root, name), '', { flag: 'wx', mode: 0o444 });
        else await mkdir(join(root, name), { mode: 0o755 });
      } catch {
        // Exists already (as anything), or the root is not a folder we can write: Codex does as before.
      }
    }
  }
}

/**
 * `work`, with an AppFailure `unsafe-path` (a link where Angelia keeps its own folder, never followed:
 * compile/safeWrite.ts `ensurePlainFolder`) turned into a refused start with the same message and fix.
 */
async function refusing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppFailure && e.app.code === 'unsafe-path') throw new AppFailure({ ...e.app, code: 'refused' });
    throw e;
  }
}

/** What a start prepared before its launch is compiled. */
export interface Prepared {
  /** The chat's agent token (core/api/tokens.ts `chatToken`). */
  token: string;
  /** The chat's mailbox folder, null for a read-only start. */
  mailbox: string | null;
  /** The `angelia` launcher, null for a read-only start or when the CLI is not built. */
  launcher: string | null;
}

/**
 * Prepares a start before the launch facts are read (the private folders and the chat's mailbox must
 * exist when Codex mounts the sandbox: a missing denied folder is masked with a file, and a write entry
 * below it would fail): the state's private folders (for a sandboxed or read-only start), the Codex
 * home, the deny floor's mount points on Linux (denyMountPoints.ts), the chat token, and unless
 * `readOnly` the mailbox with its identity file and the launcher.
 * Throws AppFailure `refused` naming the path and the fix.
 */
export async function prepareStart(paths: InstancePaths, opts: { chatId: string; sandboxed: boolean; readOnly: boolean }): Promise<Prepared> {
  if (opts.sandboxed || opts.readOnly) await refusing(ensureStateFolders(paths.stateDir));
  try {
    await ensureCodexHome(paths.codexHome);
  } catch (e) {
    throw new AppFailure({
      code: 'refused',
      message: `Codex's home ${paths.codexHome} does not exist and cannot be created: ${(e as Error).message}`,
      where: paths.codexHome,
      fix: 'create that folder, or set CODEX_HOME to a folder that exists',
    });
  }
  // The deny floor's mount points, so that no Codex process makes and removes them while another one
  // mounts on them (denyMountPoints.ts; Linux only, where bubblewrap needs them).
  if ((opts.sandboxed || opts.readOnly) && process.platform === 'linux') await ensureMountPoints(denyMountPoints(paths));
  const token = chatToken(ensureOwnerToken(paths.apiToken), opts.chatId);
  let mailbox: string | null = null;
  if (!opts.readOnly) {
    try {
      mailbox = await ensureMailbox(paths.stateDir, opts.chatId, { chat: opts.chatId, token });
    } catch (e) {
      throw new AppFailure({
        code: 'refused',
        message: `the chat's mailbox cannot be prepared: ${(e as Error).message}`,
        where: mailboxDirFor(paths.stateDir, opts.chatId),
        fix: 'remove whatever is at that path (Angelia creates the folder itself) and start again',
      });
    }
  }
  const launcher = opts.readOnly ? null : await refusing(writeAgentLauncher(paths.stateDir));
  return { token, mailbox, launcher };
}

/**
 * Prepares what the compiled launch names (compile/codexProfile.ts `CodexLaunch`): its package cache
 * folder and, for a sandboxed launch on Linux, the mount points in every writable root (TMPDIR is a
 * writable entry of its own, so Codex mounts its placeholders there too). Throws AppFailure `refused`
 * for a link where the cache must be, or the fs error.
 */
export async function prepareSandbox(
  launch: { cacheDir: string | null; sandboxed: boolean; writableRoots: readonly string[] },
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  if (launch.cacheDir) await refusing(ensureCacheDirs(launch.cacheDir));
  if (launch.sandboxed && platform === 'linux')
    await ensureSandboxPlaceholders([...launch.writableRoots, ...(launch.cacheDir ? [cacheTmpDir(launch.cacheDir)] : [])]);
}
