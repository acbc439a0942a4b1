/**
 * `angelia run` as a user runs it: the built CLI (npm test builds before vitest), a real codex, a
 * scripted model. Checks the stable JSON lines and the exit codes of `angelia run`.
 */
import { spawn } from 'node:child_process';
import { chmod, rm, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveCodexBin } from '../../src/main/core/codex/resolve';
import { freshDir } from '../../src/main/demo/codexHome';
import { makeInstance, type TestInstance } from '../fixtures/instance';

const CLI = join(__dirname, '..', '..', 'bin', 'angelia.js');

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let inst: TestInstance | null = null;
afterEach(async () => {
  await inst?.cleanup();
  inst = null;
});

describe('angelia run', () => {
  it('prints items, approvals and a final turn-end, and exits 0', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'x.txt');
    inst.model.enqueue(
      { exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated', justification: 'needs it' } },
      { message: 'done, declined' },
    );
    const r = await runCli(['run', 'coder', 'write', 'outside', '--json', '--approve', 'deny'], inst.env);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.some((o) => o.type === 'item')).toBe(true);
    expect(out.find((o) => o.type === 'approval')).toMatchObject({ kind: 'command', answer: 'deny' });
    const end = out.at(-1);
    expect(end).toMatchObject({ type: 'turn-end', ok: true, text: 'done, declined' });
    expect(typeof end?.thread).toBe('string');
  });

  it('exits 3 with the reason when a Codex config layer would weaken the sandbox', async () => {
    inst = await makeInstance({ coder: {} });
    const config = join(inst.env.CODEX_HOME as string, 'config.toml');
    await writeFile(config, `sandbox_mode = "danger-full-access"\n${await readFile(config, 'utf8')}`);
    const r = await runCli(['run', 'coder', 'hello', '--json'], inst.env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/sets sandbox_mode/);
    expect(r.stderr).toContain(config);
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'turn-end', ok: false, reason: expect.stringMatching(/sandbox_mode/) });
    expect(inst.model.modelRequests()).toHaveLength(0);
  });

  it("without --json, says a refused start once (the chat's error line, then nothing more)", async () => {
    inst = await makeInstance({ coder: {} });
    const config = join(inst.env.CODEX_HOME as string, 'config.toml');
    await writeFile(config, `sandbox_mode = "danger-full-access"\n${await readFile(config, 'utf8')}`);
    const r = await runCli(['run', 'coder', 'hello'], inst.env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: This chat's agent was not started: .*sets sandbox_mode/m);
    expect(r.stderr).toContain('Nothing was sent to it.');
    expect(r.stderr.match(/sets sandbox_mode/g)).toHaveLength(1);
    expect(inst.model.modelRequests()).toHaveLength(0);
  });

  it('exits 1 when the turn fails, with the cause told plainly', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({
      httpError: { status: 429, body: { error: { type: 'usage_limit_reached', message: 'limit', plan_type: 'plus', resets_at: 1_900_000_000 } } },
    });
    const r = await runCli(['run', 'coder', 'hello', '--json'], inst.env);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'turn-end', ok: false, reason: expect.stringMatching(/^Usage limit reached/) });
  });

  it("a later run of the chat adopts the Codex it started early: one spawn, given the chat's own variables", async () => {
    // The profile's codex is a wrapper that logs each spawn (its pid, and whether the chat's API token is set).
    const dir = await freshDir('cli-run-wrap');
    try {
      const log = join(dir, 'spawns.log');
      const wrapper = join(dir, 'codex');
      const codex = resolveCodexBin(undefined, { env: process.env });
      await writeFile(wrapper, `#!/bin/sh\necho "$$ \${ANGELIA_API_TOKEN:+token}" >> '${log}'\nexec '${codex.path}' "$@"\n`);
      await chmod(wrapper, 0o755);
      inst = await makeInstance({ coder: { bin: wrapper } });
      inst.model.enqueue({ message: 'one' }, { message: 'two' }, { message: 'three' });
      const spawnsSoFar = async (): Promise<string[]> => (await readFile(log, 'utf8')).trim().split('\n');
      const first = await runCli(['run', 'coder', 'hello', '--json'], inst.env);
      expect(first.code, first.stderr).toBe(0);
      expect(await spawnsSoFar()).toHaveLength(1);
      // The first run's Codex created files in CODEX_HOME, which the next launch plan denies too: the
      // second run's argv differs from the remembered one, so its early child is killed and Codex spawned afresh.
      const second = await runCli(['run', 'coder', 'again', '--json'], inst.env);
      expect(second.code, second.stderr).toBe(0);
      const afterSecond = (await spawnsSoFar()).length;
      const third = await runCli(['run', 'coder', 'once more', '--json'], inst.env);
      expect(third.code, third.stderr).toBe(0);
      expect(lines(third.stdout).at(-1)).toMatchObject({ type: 'turn-end', ok: true, text: 'three' });
      const spawns = await spawnsSoFar();
      // Started once, early, and adopted (a child not adopted is killed and a second one spawned).
      expect(spawns).toHaveLength(afterSecond + 1);
      expect(spawns.at(-1)).toMatch(/^\d+ token$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
