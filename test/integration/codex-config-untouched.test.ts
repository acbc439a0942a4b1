/**
 * Angelia never causes a write to the user's Codex config (docs/security-model.md "The user's Codex
 * config is never written"), measured on REAL Codex (0.169.0, Linux bubblewrap) through the orchestrator
 * the hosts use, with the scripted model: a fresh CODEX_HOME, a profile not in plan mode, two starts
 * (each a turn that runs a command in the sandbox, the second in a new Codex process), and
 * `CODEX_HOME/config.toml` byte-identical after them, with no other file named config*.toml left
 * there. Measured before the fix: the first start appended `[projects."<cwd>"] trust_level =
 * "trusted"` (the `.codex` placeholder folder Angelia leaves in the profile folder made Codex take it for
 * a project), and from the second start that project's `.codex/` layer loaded.
 */
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { makeInstance, turnOn, type TestInstance, type TestProfile, commandItems } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const commands = commandItems;

/** One start of profile `name`'s chat in a new orchestrator (a new Codex process): a turn that runs a command. */
async function startOnce(i: TestInstance, name: string, marker: string): Promise<void> {
  i.model.enqueue({ exec: { cmd: `echo ${marker}`, login: false } }, { message: 'done' });
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  orch = o;
  const items = await turnOn(o, name, 'run it');
  expect(
    items.find((x) => x.type === 'turnEnd'),
    JSON.stringify(items),
  ).toMatchObject({ status: 'completed' });
  expect(commands(items).at(-1)?.output).toContain(marker);
  await o.shutdown();
  orch = null;
}

describe("the user's Codex config on real codex", () => {
  const shapes: Array<[string, TestProfile]> = [
    ['acceptEdits', { permission_mode: 'acceptEdits' }],
    ['default', { permission_mode: 'default' }],
    ['bypassPermissions', { permission_mode: 'bypassPermissions' }],
    ['plan', { permission_mode: 'plan' }],
    ['sandbox = false', { permission_mode: 'acceptEdits', sandbox: false }],
  ];
  for (const [what, profile] of shapes) {
    it(`two starts of a ${what} profile leave CODEX_HOME/config.toml byte-identical`, async () => {
      inst = await makeInstance({ coder: profile }, { privateHome: true });
      const file = join(inst.paths.codexHome, 'config.toml');
      const before = await readFile(file);
      const mtime = (await stat(file)).mtimeMs;
      await startOnce(inst, 'coder', 'FIRST-START');
      await startOnce(inst, 'coder', 'SECOND-START');
      const after = await readFile(file);
      expect(after.toString('utf8')).toBe(before.toString('utf8'));
      expect(after.equals(before)).toBe(true);
      expect((await stat(file)).mtimeMs).toBe(mtime);
      expect((await readdir(inst.paths.codexHome)).filter((f) => /^config.*\.toml/.test(f))).toEqual(['config.toml']);
      // The mount point Angelia leaves for Codex's sandbox is a file: no project config folder (launch/prepare.ts).
      if (profile.sandbox !== false && what !== 'plan') expect((await lstat(join(inst.cwd.coder!, '.codex'))).isFile()).toBe(true);
    });
  }
});
