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

/**
 * Creates each missing folder of STATE_PRIVATE_FOLDERS in `stateDir`, mode 700 (existing ones are left
 * as they are). Throws the fs error when one cannot be created.
 */
export async function ensureStateFolders(stateDir: string): Promise<void> {
  for (const rel of STATE_PRIVATE_FOLDERS) await mkdir(join(stateDir, rel), { recursive: true, mode: 0o700 });
}
