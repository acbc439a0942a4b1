/**
 * Creates the private folders of the state folder before an agent starts (floor.ts
 * STATE_PRIVATE_FOLDERS: private, compiled, approvals, exports, logs, media, mailbox), so that each is
 * denied as the folder it is. Why: for an approved escalation, codex 0.169.0 on Linux masks a denied path
 * that does not exist by creating an empty read-only FILE at that path on the host for as long as the
 * command runs (measured; removed afterwards). Were `exports/` missing then, Angelia's own
 * `mkdir exports` (an `/export` during that command) would fail with EEXIST; were `private/` missing,
 * the first write of the sessions store, the children record or the audit log would fail the same way.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_PRIVATE_FOLDERS } from './floor';
import { ensurePlainFolder } from './safeWrite';

/**
 * Creates each missing folder of STATE_PRIVATE_FOLDERS in `stateDir`, mode 700 (existing ones are left
 * as they are), never through a symbolic link (docs/security-model.md "Grants are checked by real path,
 * at compile and at every start"). Throws AppFailure `unsafe-path` when one is a link or a file, or the
 * fs error when one cannot be created.
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
  const there = await lstat(codexHome).then(() => true, (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)));
  // mkdir never follows a link at its last component: one made in between fails with EEXIST, left as it is.
  if (!there) await mkdir(codexHome, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
}
