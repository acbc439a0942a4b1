/**
 * Creates the private folders of the state folder before an agent starts (floor.ts
 * STATE_PRIVATE_FOLDERS: private, compiled, approvals, exports, logs, media, mailbox), so that each is
 * denied as the folder it is. Why: for an approved escalation, codex 0.169.0 on Linux masks a denied path
 * that does not exist by creating an empty read-only FILE at that path on the host for as long as the
 * command runs (measured; removed afterwards). Were `exports/` missing then, Angelia's own
 * `mkdir exports` (an `/export` during that command) would fail with EEXIST; were `private/` missing,
 * the first write of the sessions store, the children record or the audit log would fail the same way.
 */
import { mkdir } from 'node:fs/promises';
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
