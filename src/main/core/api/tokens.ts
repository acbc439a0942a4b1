/**
 * Tokens of the local API (README "The loopback API"): the owner token in `<state>/private/api.token` (24
 * random bytes, base64url, mode 600, minted on first use and re-tightened if its mode was widened), and a
 * per-chat agent token = base64url(HMAC-SHA256(owner token, "angelia-session:" + chat id)), stable
 * across restarts and useless for any other chat.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { AppFailure } from '../../../shared/result';

/**
 * Reads the owner token, minting it (mode 600) when absent. Throws AppFailure when it cannot be read.
 * `file` is InstancePaths `apiToken`, in the private folder denied whole (instance/paths.ts PRIVATE_DIR):
 * a token minted while agents run (after the file was deleted) is hidden from their running commands,
 * which a named deny of a file created after their sandbox was built would not do (measured, 0.169.0).
 */
export function ensureOwnerToken(file: string): string {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomic.sync(file, randomBytes(24).toString('base64url') + '\n', { mode: 0o600 });
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  if (token.length < 16)
    throw new AppFailure({ code: 'bad-token', message: 'the owner token is too short', where: file, fix: 'delete the file; Angelia mints a new one' });
  return token;
}

/** The agent token of one chat. */
export function chatToken(ownerToken: string, chatId: string): string {
  return createHmac('sha256', ownerToken).update(`angelia-session:${chatId}`).digest('base64url');
}
