/**
 * The `developerInstructions` sent on thread/start and thread/resume (codex 0.169.0), in our words:
 * who the agent is, the sandbox it is in, the folders it may write, and how to ask for one more folder.
 * Without the "you may ask" line Codex never asks, so the on-request modes would behave like bypass.
 * When the agent's commands can reach Angelia (`api`), one more paragraph names the `angelia` command,
 * the agent's own chat and what it may do with it.
 */

/** What the instructions need to know about the profile. Paths are absolute. */
export interface InstructionFacts {
  profile: string;
  stateDir: string;
  tableFile: string;
  cwd: string;
  writable: string[];
  sandboxed: boolean;
  mode: 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan';
  /**
   * How the agent's commands reach Angelia: the absolute path of the `angelia` launcher and the agent's
   * own chat id. Absent (or null): no paragraph about it (e.g. plan mode, where the mailbox is not given).
   */
  api?: { command: string; chat: string } | null;
}

/** The paragraph about the `angelia` command (see InstructionFacts `api`); `angelia guide api` prints it too. */
export function apiParagraph(api: { command: string; chat: string }): string {
  return `To reach Angelia from your commands, run ${api.command} (the angelia command: write its full path, since a login shell may reset PATH; below it is written \`angelia\`). Your chat is "${api.chat}". \`angelia send-media ${api.chat} <file> [caption]\` shows a file of your folder to the owner in this chat; \`angelia send <chat> <text>\` posts a line into a chat; \`angelia turn <chat> <text>\` gives another chat's agent a turn and \`angelia ask <chat> <question>\` asks it and prints the answer, when that profile accepts you (it answers from a read-only copy of its conversation). Messages you send are labelled with your profile. Run angelia as an ordinary command: run outside the sandbox after an approval, it cannot reach Angelia.`;
}

/** What an agent can read (docs/security-model.md "Filesystem: private by default"), said the same in every mode. */
const READS =
  "You can read only your folders, the system folders (/usr, /etc, /bin, /lib …) and what your profile names to read; nothing else of the home folder is there (no keys, histories, other tools' data, other profiles' folders, Angelia's state).";

/** Builds the instructions text (plain text, a few short paragraphs). */
export function developerInstructions(f: InstructionFacts): string {
  const self = `You are the agent of the Angelia profile "${f.profile}". Angelia runs you on this computer and relays your approval requests to its owner; it runs no model itself. Its settings live in ${f.tableFile}; do not change them unless asked.`;
  const api = f.api ? [apiParagraph(f.api)] : [];
  if (!f.sandboxed) {
    return [
      `${self}\n\nThis profile runs WITHOUT a sandbox because its table says sandbox = false: you have full access, and nothing is held back for you. Be careful.`,
      ...api,
    ].join('\n\n');
  }
  if (f.mode === 'plan') {
    return `${self}\n\nYou are in Codex's sandbox, set by Angelia, in plan mode: you may read, but write nothing. ${READS}`;
  }
  const folders = [f.cwd, ...f.writable].join(', ');
  const ask =
    f.mode === 'bypassPermissions'
      ? 'Do not try to get around the sandbox.'
      : 'You may also ask for access to one exact folder (read or write) for this turn with the request_permissions tool; the owner approves or declines. Asking to run a command fully outside the sandbox does not work: the sandbox stays even after a yes.';
  return [
    self,
    `You are in Codex's sandbox, set by Angelia. You may write only in ${folders} and the temp folder ($TMPDIR; there is no /tmp); a .git folder at the top of those is read-only, so you cannot commit. ${READS} Network is web only (HTTP/HTTPS through a proxy): no SSH, no local ports, no server you start and connect to. Package caches live in your own cache folder.`,
    `When the sandbox blocks something ("Permission denied", "Read-only file system", "Operation not permitted", or "No such file or directory" for a path that exists outside the sandbox), say so plainly and name the lasting fix: add the folder to add_dirs (to write) or read_dirs (to read) of profile "${f.profile}" in Angelia. ${ask}`,
    ...api,
  ].join('\n\n');
}
