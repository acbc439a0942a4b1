/**
 * The `angelia` command as agents' commands run it: a small launcher `<state>/bin/angelia` (floor.ts
 * STATE_BIN: readable by every agent, writable by none) that runs the CLI of the Angelia that started
 * them with the same Node (or, inside the Electron app, the app's own binary with
 * `ELECTRON_RUN_AS_NODE=1`). A launch puts `<state>/bin` first on the agent's PATH and names the
 * launcher in its developer instructions (a login shell may reset PATH). Inside Codex's sandbox the Node
 * binary, Angelia's built CLI and this launcher are read grants of every launch that has the command
 * (codexProfile.ts; docs/security-model.md; measured on Linux by test/integration/api-mailbox.test.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_BIN } from './floor';
import { ensurePlainFolder, readNoFollow, replaceAtomically } from './safeWrite';
import { repoRoot } from '../../demo/codexHome';

/** How to run Angelia's CLI: the executable, the built CLI script, and whether it is Electron's binary. */
export interface CliRuntime {
  /** Absolute path of Node (or of the Electron binary when `electron`). */
  exec: string;
  /** Absolute path of the built CLI (`out/main/cli.js`). */
  script: string;
  /** True inside Electron: the launcher sets ELECTRON_RUN_AS_NODE=1 so the binary runs as Node. */
  electron: boolean;
}

/**
 * The CLI runtime of this process: `process.execPath` and `<package root>/out/main/cli.js`. Null when
 * the CLI is not built (then agents get no `angelia` command, and their instructions do not mention it).
 */
export function currentCliRuntime(): CliRuntime | null {
  const script = join(repoRoot(), 'out', 'main', 'cli.js');
  if (!existsSync(script)) return null;
  return { exec: process.execPath, script, electron: typeof process.versions.electron === 'string' };
}

/**
 * Angelia's own program as it runs outside the sandbox: the executable of this process (Node, or the
 * Electron binary) and, in the install folder (the folder of package.json), `bin/`, `out/`,
 * `node_modules/` and `package.json`. The grant check (grants.ts) refuses a start when an agent can
 * write any of them: an agent that rewrote `bin/angelia.js` would run its code with the user's full
 * access at the next `angelia` command (found by an attack on a profile whose folder held the install).
 * Absolute paths; reads nothing.
 */
export function angeliaProgram(): string[] {
  const root = repoRoot();
  return [process.execPath, ...['bin', 'out', 'node_modules', 'package.json'].map((n) => join(root, n))];
}

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
