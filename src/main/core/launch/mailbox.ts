/**
 * Each chat's mailbox (docs/sandbox-sockets.md): `<state>/mailbox/<first 16 hex of
 * sha256("angelia-mailbox:" + chat id)>/`, the folder through which that chat's agent reaches Angelia
 * where its commands cannot reach the API socket (Linux: codex 0.169.0 blocks every Unix socket once its
 * network proxy is on, and has no per-socket allowlist). `<state>/mailbox` is private state denied to
 * every profile (floor.ts STATE_PRIVATE); a launch grants its agent one `write` entry on its own chat's
 * folder inside it (measured on Linux: the nested write entry works, and another profile can neither
 * write there nor see it). The folder is per chat, not per profile, so the identity file it holds (the
 * chat id and the chat token, `IDENTITY_FILE`) reaches that chat's agent alone.
 *
 * Files Angelia writes into a folder an agent can write are written with `writeNoFollow` (a fresh name
 * opened O_CREAT|O_EXCL|O_NOFOLLOW, then renamed over the target), so a symbolic link or FIFO the agent
 * planted is replaced, never followed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePlainFolder } from '../compile/safeWrite';
import { writeNoFollow as writeReplacing } from '../instance/noFollow';

/** The folder of `<state>` that holds every chat's mailbox. */
export const MAILBOX_ROOT = 'mailbox';

/** The file in a chat's mailbox that tells the agent's `angelia` commands who they are. */
export const IDENTITY_FILE = 'identity.json';

/** What `IDENTITY_FILE` holds: the API version, the chat id and the chat's agent token. */
export interface MailboxIdentity {
  api: 1;
  chat: string;
  token: string;
}

/** The name of `chatId`'s mailbox folder: 16 hex characters (a chat id may hold any character). Pure. */
export function mailboxName(chatId: string): string {
  return createHash('sha256').update(`angelia-mailbox:${chatId}`, 'utf8').digest('hex').slice(0, 16);
}

/** `<stateDir>/mailbox/<mailboxName(chatId)>`. Pure. */
export function mailboxDirFor(stateDir: string, chatId: string): string {
  return join(stateDir, MAILBOX_ROOT, mailboxName(chatId));
}

/**
 * Writes `data` to `file` (a direct child of a folder an agent may write) without following anything
 * the agent put there: the bytes go to a fresh `.<uuid>.angelia-tmp` opened O_CREAT|O_EXCL|O_NOFOLLOW
 * with `mode` (plus O_NOFOLLOW_ANY on macOS), synced, which is then renamed over `file` (rename replaces
 * a symbolic link, it does not follow it; instance/noFollow.ts). Throws the fs error; the temporary file
 * is removed on failure.
 */
export async function writeNoFollow(file: string, data: string | Buffer, mode = 0o600): Promise<void> {
  await writeReplacing(file, data, { mode, tmp: join(file, '..', `.${randomUUID()}.angelia-tmp`), anyLink: true });
}

/**
 * Creates `<stateDir>/mailbox` and `chatId`'s folder in it (mode 700) before the chat's agent starts
 * (Codex ignores a writable entry whose folder does not exist, and masks a missing denied folder with a
 * file), and writes the identity file into it (mode 600). Folders already there are kept. Throws the
 * fs error, or AppFailure `unsafe-path` naming the path when the mailbox root or folder is not a plain
 * folder (a symbolic link, never followed; a file). Answers the folder's path.
 */
export async function ensureMailbox(stateDir: string, chatId: string, identity: Omit<MailboxIdentity, 'api'>): Promise<string> {
  const root = join(stateDir, MAILBOX_ROOT);
  const dir = mailboxDirFor(stateDir, chatId);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  // One level at a time, never through a link (a recursive mkdir would create the chat's folder in it).
  for (const d of [root, dir]) await ensurePlainFolder(d, 0o700, "each chat's mailbox");
  const body: MailboxIdentity = { api: 1, chat: identity.chat, token: identity.token };
  await writeNoFollow(join(dir, IDENTITY_FILE), `${JSON.stringify(body)}\n`, 0o600);
  return dir;
}
