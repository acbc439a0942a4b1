/**
 * `angelia run` starts Codex from the chat's last launch before its plan is ready (core/codex/prespawn.ts).
 * When the run is then refused — here an unknown chat, exit 2 — that early child must not outlive it, nor
 * hold the command open: the command exits as before and the child is killed.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchMemoryFile } from '../../src/main/core/codex/prespawn';
import { waitGone } from '../core/codex/processes';
import { angelia, initInstance, type CliInstance } from './cli';

let inst: CliInstance;
beforeAll(async () => {
  inst = await initInstance('cli-prespawn');
});
afterAll(async () => inst?.cleanup());

describe('angelia run with a remembered launch', () => {
  it('a refused run (unknown chat, exit 2) kills the early child and does not wait for it', async () => {
    const pidFile = join(inst.root, 'early.pid');
    // A stand-in for codex that records its pid and would run for a minute.
    const memory = launchMemoryFile(inst.state, 'nosuch');
    mkdirSync(join(inst.state, 'private', 'launch'), { recursive: true });
    // The executable's own stamp (core/codex/prespawn.ts: a changed executable starts nothing early).
    const st = statSync(process.execPath);
    writeFileSync(
      memory,
      JSON.stringify({
        version: 3,
        bin: process.execPath,
        cwd: inst.root,
        set: {},
        names: Object.keys(inst.env),
        stamps: [{ path: process.execPath, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs }],
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000)`],
      }),
    );
    const run = await angelia(inst.env, 'run', 'nosuch', 'hi');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no chat or profile named "nosuch"');
    // It was started (early), and is gone once `run` has exited.
    for (let i = 0; i < 50 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(await waitGone(pid, 2_000)).toBe(true);
  });
});
