/**
 * Helpers of the CLI tests: `angelia <args>` run from the SOURCE entry (src/main/cli/index.ts, through
 * tsx, in a fresh Node process, so no build is needed) with a test instance's environment, and a fresh
 * instance made by `angelia init` under `<repo>/.angelia-test/` (a fake home, CODEX_HOME beside it).
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../core/instance/testDir';

/** What one run printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `angelia <args>` (the source entry) with `env` as its whole environment (PATH added). */
export function angelia(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/index.ts'), ...args],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/** A test instance made by `angelia init`: one profile `assistant` in `<state>/workspace/profiles/assistant`. */
export interface CliInstance {
  root: string;
  env: Record<string, string>;
  state: string;
  codexHome: string;
  tableFile: string;
  acceptedTable: string;
  profileDir: string;
  cleanup(): Promise<void>;
}

/** Makes a fresh instance with `angelia init` (exit 0 checked by the caller's first assertion on it). */
export async function initInstance(label: string): Promise<CliInstance> {
  const root = await makeTestDir(label);
  await mkdir(join(root, 'home'), { recursive: true });
  const state = join(root, 'state');
  const codexHome = join(root, 'codex-home');
  const env = { HOME: join(root, 'home'), ANGELIA_STATE_DIR: state, CODEX_HOME: codexHome };
  const init = await angelia(env, 'init');
  if (init.code !== 0) throw new Error(`angelia init failed: ${init.stderr}`);
  return {
    root,
    env,
    state,
    codexHome,
    tableFile: join(state, 'workspace', 'angelia.toml'),
    acceptedTable: join(state, 'compiled', 'angelia.accepted.toml'),
    profileDir: join(state, 'workspace', 'profiles', 'assistant'),
    cleanup: () => removeTestDir(root),
  };
}
