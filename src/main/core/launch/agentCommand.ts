/**
 * The `angelia` command as agents' commands run it: a small launcher `<state>/bin/angelia` (floor.ts
 * STATE_BIN: readable by every agent, writable by none) that runs the CLI of the Angelia that started
 * them with the same Node (or, inside the Electron app, the app's own binary with
 * `ELECTRON_RUN_AS_NODE=1`). A launch puts `<state>/bin` first on the agent's PATH and names the
 * launcher in its developer instructions (a login shell may reset PATH). Inside Codex's sandbox the Node
 * binary, Angelia's built CLI and this launcher are read grants of every launch that has the command
 * (compile/codexProfile.ts; docs/security-model.md; measured on Linux by test/integration/api-mailbox.test.ts).
 * The runtime itself (`CliRuntime`) and Angelia's install are instance/program.ts's.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_BIN } from '../compile/floor';
import { ensurePlainFolder, readNoFollow, replaceAtomically } from '../compile/safeWrite';
import { currentCliRuntime, type CliRuntime } from '../instance/program';

/** `s` quoted for a POSIX shell (single quotes). */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The launcher script for `rt` (POSIX sh). Pure. */
export function launcherText(rt: CliRuntime): string {
  const run = `exec ${shQuote(rt.exec)} ${shQuote(rt.script)} "$@"`;
  return [
    '#!/bin/sh',
    '# Written by Angelia for its agents: the `angelia` command (the CLI of the Angelia that started them).',
    rt.electron ? `ELECTRON_RUN_AS_NODE=1 ${run}` : run,
    '',
  ].join('\n');
}

/** `<stateDir>/bin`, the folder put first on agents' PATH. Pure. */
export function agentBinDir(stateDir: string): string {
  return join(stateDir, STATE_BIN);
}

/**
 * Writes `<stateDir>/bin/angelia` for `rt` (folder 700, file 700, atomically; left alone when it already
 * holds that text). Never through a link: `<state>/bin` must be a plain folder, and the file is read
 * without following one and replaced by a rename (safeWrite.ts). Answers its path, or null when `rt` is
 * null. Throws AppFailure `unsafe-path` when `<state>/bin` is not a plain folder, or the fs error.
 */
export async function writeAgentLauncher(stateDir: string, rt: CliRuntime | null = currentCliRuntime()): Promise<string | null> {
  if (!rt) return null;
  const dir = agentBinDir(stateDir);
  const file = join(dir, 'angelia');
  const text = launcherText(rt);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await ensurePlainFolder(dir, 0o700, 'the `angelia` command of its agents');
  // A link, a FIFO or a shared file there is never read or written through: it is replaced.
  const now = await readNoFollow(file).catch(() => null);
  if (now === null || now.toString('utf8') !== text) await replaceAtomically(file, text, 0o700);
  return file;
}
