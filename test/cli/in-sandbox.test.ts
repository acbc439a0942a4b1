/**
 * The `angelia` command inside Codex's real sandbox (codex 0.169.0, `codex sandbox` with a chat's own
 * launch plan: its `-c` flags, its environment, its `<state>/bin/angelia` launcher; needs the built CLI,
 * `npx electron-vite build`):
 * - `angelia guide` works in a chat's sandbox with no token read and no Angelia running, and names the
 *   chat and the launcher;
 * - in the read-only copy an `/ask` runs in (`planLaunch({ readOnly: true })`: environment `ANGELIA_ASK=1`,
 *   no mailbox, no token), `angelia send` says it is a read-only copy that cannot reach Angelia (exit 1)
 *   — not "no owner token … start Angelia first" (exit 3) — and `angelia guide` still works.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_ONLY_COPY } from '../../src/main/api/client';
import { ASK_ENV } from '../../src/main/core/launch/env';
import { planLaunch } from '../../src/main/core/launch/plan';
import type { LaunchPlan } from '../../src/main/core/launch/plan';
import { loadTable } from '../../src/main/core/table/load';
import { REPO_ROOT } from '../core/instance/testDir';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance;
let chatPlan: LaunchPlan;
let askPlan: LaunchPlan;
let launcher: string;

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'out', 'main', 'cli.js'))) throw new Error('the CLI is not built: run npx electron-vite build first');
  inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } }, { privateHome: true });
  const table = await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env });
  chatPlan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths: inst.paths, env: inst.env });
  askPlan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths: inst.paths, env: inst.env, readOnly: true });
  launcher = join(inst.paths.stateDir, 'bin', 'angelia');
});
afterAll(async () => inst?.cleanup());

/** Runs `cmd` in `plan`'s sandbox (`codex sandbox <its -c flags> -- cmd`) with its environment. */
function inSandbox(plan: LaunchPlan, cmd: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      plan.spawn.bin,
      ['sandbox', ...plan.spawn.args.slice(0, -1), '--', ...cmd],
      { cwd: plan.spawn.cwd, env: plan.spawn.env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: number | string }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

describe('angelia inside the sandbox', () => {
  it('the launch plans: a chat gets its API variables, the read-only copy none of them but ANGELIA_ASK=1', () => {
    expect(chatPlan.spawn.env[ASK_ENV]).toBeUndefined();
    expect(chatPlan.spawn.env.ANGELIA_MAILBOX).toBeTruthy();
    expect(askPlan.spawn.env[ASK_ENV]).toBe('1');
    for (const k of ['ANGELIA_API_TOKEN', 'ANGELIA_SESSION_KEY', 'ANGELIA_API_SOCK', 'ANGELIA_MAILBOX']) expect(askPlan.spawn.env[k], k).toBeUndefined();
    expect(existsSync(launcher)).toBe(true);
  });

  it("guide works in a chat's sandbox, with no Angelia running, and names the chat and the launcher", async () => {
    const run = await inSandbox(chatPlan, [launcher, 'guide', 'api']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^HOW TO REACH ANGELIA FROM INSIDE THE SANDBOX/);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(`run ${launcher} (the angelia command`);
    // Whitespace folded: the guide wraps at 100 columns and the launcher's path (its length varies with
    // where the repository and the test folder are) decides where the line breaks.
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('Your chat is "coder"');
  });

  it('in the read-only copy: send says it cannot reach Angelia (exit 1); guide still works and says so first', async () => {
    const send = await inSandbox(askPlan, [launcher, 'send', 'coder', 'hello']);
    expect(send.stderr).toBe(`angelia send: ${READ_ONLY_COPY}\n`);
    expect(send.code).toBe(1);
    const guide = await inSandbox(askPlan, [launcher, 'guide', 'api']);
    expect(guide.code, guide.stderr).toBe(0);
    expect(guide.stdout.replace(/\s+/g, ' ')).toContain(`Here: ${READ_ONLY_COPY}`);
  });
});
