/**
 * Start attestation on real Codex: every config layer that would weaken the compiled sandbox refuses
 * the start and names its file; nothing reaches the model. An old Codex is played by the fake app-server.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { ChildLedger, childrenFile } from '../../src/main/core/codex/children';
import { makeInstance, type TestInstance, type TestProfile } from '../fixtures/instance';
import { writeCompiled } from '../fixtures/compiled';
import { loadTable } from '../../src/main/core/table/load';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** Puts `text` at the top of CODEX_HOME/config.toml (top-level keys must precede its tables). */
async function prependUserConfig(i: TestInstance, text: string): Promise<string> {
  const file = join(i.env.CODEX_HOME as string, 'config.toml');
  await writeFile(file, `${text}\n${await readFile(file, 'utf8')}`);
  return file;
}

/** Sends one message and returns the chat's items and view afterwards. */
async function attempt(i: TestInstance, profile = 'coder'): Promise<{ items: ChatItem[]; refusal: string | null; state: string; enforcement: string | null }> {
  orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  const chat = orch.chat(profile);
  chat.send('hello');
  await chat.idle();
  const v = chat.view();
  return { items: chat.transcript.all(), refusal: v.refusal, state: v.state, enforcement: v.enforcement };
}

async function setup(profile: TestProfile = { permission_mode: 'default' }): Promise<TestInstance> {
  inst = await makeInstance({ coder: profile });
  inst.model.enqueue({ message: 'should never be asked' });
  return inst;
}

describe('config layers that would weaken the sandbox', () => {
  const spellings: Array<[string, string]> = [
    // A base profile would bring `":root" = "read"`: the compiled profile extends none (codexProfile.ts).
    ['a plain table', '[permissions.angelia]\nextends = ":workspace"\n'],
    ['a quoted table', '[permissions."angelia".network]\nenabled = true\n'],
    ['a dotted key', 'permissions.angelia.network.dangerously_allow_all_unix_sockets = true\n'],
  ];
  for (const [name, toml] of spellings) {
    it(`refuses permissions.angelia in the user config written as ${name}`, async () => {
      const i = await setup();
      const file = await prependUserConfig(i, toml);
      const r = await attempt(i);
      expect(r.state).toBe('refused');
      expect(r.refusal).toContain(`user layer ${file} sets permissions.angelia`);
      expect(i.model.modelRequests()).toHaveLength(0);
    });
  }

  it('a user config that bases permissions.angelia on :danger-full-access never starts (Codex itself refuses the profile)', async () => {
    const i = await setup();
    await prependUserConfig(i, '[permissions.angelia]\nextends = ":danger-full-access"\n');
    const r = await attempt(i);
    expect(r.state).toBe('error');
    expect(r.items.find((x) => x.type === 'error')).toMatchObject({
      message: expect.stringContaining('cannot extend unsupported built-in profile `:danger-full-access`') as unknown,
    });
    expect(r.enforcement).toBeNull();
    expect(i.model.modelRequests()).toHaveLength(0);
  });

  it('refuses sandbox_mode in the user config', async () => {
    const i = await setup();
    const file = await prependUserConfig(i, 'sandbox_mode = "danger-full-access"');
    const r = await attempt(i);
    expect(r.refusal).toContain(`user layer ${file} sets sandbox_mode`);
    expect(i.model.modelRequests()).toHaveLength(0);
  });

  it("refuses a trusted project's .codex/config.toml that sets sandbox_mode or permissions.angelia", async () => {
    const i = await setup();
    const cwd = i.cwd.coder as string;
    await mkdir(join(cwd, '.codex'));
    await writeFile(join(cwd, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n[permissions.angelia.network]\nenabled = true\n');
    await prependUserConfig(i, `[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`);
    const r = await attempt(i);
    expect(r.state).toBe('refused');
    expect(r.refusal).toContain(`${join(cwd, '.codex')}/config.toml sets sandbox_mode`);
    expect(r.refusal).toContain('sets permissions.angelia');
    expect(i.model.modelRequests()).toHaveLength(0);
  });

  it('a refused start has ended its Codex process by the time the chat says refused: no record of it is left', async () => {
    const i = await setup();
    await prependUserConfig(i, 'sandbox_mode = "danger-full-access"\n');
    const r = await attempt(i);
    expect(r.state).toBe('refused');
    // The process was recorded when it was spawned (children.ts) and is removed once it has exited.
    expect(new ChildLedger(childrenFile(i.paths.stateDir)).list().filter((c) => c.chatId === 'coder')).toEqual([]);
  });

  it("refuses the same file in the profile's folder at the very first start, the user's config left untouched", async () => {
    // The launch trusts the profile's folder on the command line (compile/projectTrust.ts), so Codex
    // would apply its `.codex/config.toml` from the first start on; before, Codex ignored it once, then
    // wrote the trust into the user's config and applied it from the second start.
    const i = await setup();
    const cwd = i.cwd.coder as string;
    await mkdir(join(cwd, '.codex'));
    await writeFile(join(cwd, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\nmodel_reasoning_summary = "detailed"\n');
    const userConfig = join(i.env.CODEX_HOME as string, 'config.toml');
    const before = await readFile(userConfig, 'utf8');
    const r = await attempt(i);
    expect(r.state).toBe('refused');
    expect(r.refusal).toContain(`${join(cwd, '.codex')}/config.toml sets sandbox_mode`);
    expect(r.refusal).toContain('would apply to this profile (it sets model_reasoning_summary)');
    expect(i.model.modelRequests()).toHaveLength(0);
    expect(await readFile(userConfig, 'utf8')).toBe(before);
  });

  it('refuses an MCP server the profile was not given, and switches off user-level ones', async () => {
    const i = await setup();
    const cwd = i.cwd.coder as string;
    await prependUserConfig(i, `[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n[mcp_servers.userlevel]\ncommand = "node"\nargs = ["-e", "0"]\n`);
    await mkdir(join(cwd, '.codex'));
    await writeFile(join(cwd, '.codex', 'config.toml'), '[mcp_servers.sneaky]\ncommand = "node"\nargs = ["-e", "0"]\n');
    const r = await attempt(i);
    expect(r.refusal).toMatch(/MCP servers this profile was not given would load: sneaky/);
    expect(r.refusal).not.toContain('userlevel');
    expect(i.model.modelRequests()).toHaveLength(0);
  });
});

describe('the Codex version gate', () => {
  it('refuses a Codex older than 0.157.0', async () => {
    const i = await setup();
    const wrapper = join(i.root, 'old-codex');
    await writeFile(
      wrapper,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(resolve(__dirname, '../fixtures/fake-app-server.mjs'))} "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    await writeFile(i.paths.tableFile, stringify({ profiles: { coder: { cwd: i.cwd.coder, permission_mode: 'default', bin: wrapper } } }));
    // Another bin waits for a compile (launch/check.ts loosenings): compiled, the start reaches the version gate.
    await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));
    i.env.FAKE_CODEX_VERSION = '0.150.2';
    const r = await attempt(i);
    expect(r.state).toBe('refused');
    expect(r.refusal).toMatch(/codex 0\.150\.2 is older than 0\.157\.0/);
  });
});

describe('what the agent gets', () => {
  it('gets a scrubbed environment with its package caches and no secrets', async () => {
    const i = await setup();
    i.model.enqueue({ exec: { cmd: 'env | sort', login: false } }, { message: 'listed' });
    i.env.OPENAI_API_KEY = 'sk-should-not-leak';
    i.env.OPENAI_BASE_URL = 'https://evil.example/v1';
    i.env.AWS_SECRET_ACCESS_KEY = 'aws-should-not-leak';
    i.env.GITHUB_TOKEN = 'gh-should-not-leak';
    i.env.MY_DB_PASSWORD = 'pw-should-not-leak';
    orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
    const chat = orch.chat('coder');
    // setup() queued one message: the first turn takes it, the second runs `env`.
    chat.send('hello');
    await chat.idle();
    chat.send('list your environment');
    await chat.idle();
    const cmd = chat.transcript.all().find((it) => it.type === 'command');
    expect(cmd?.type === 'command' && cmd.exitCode).toBe(0);
    const out = cmd?.type === 'command' ? cmd.output : '';
    expect(out).not.toContain('sk-should-not-leak');
    expect(out).not.toContain('evil.example');
    for (const leak of ['aws-should-not-leak', 'gh-should-not-leak', 'pw-should-not-leak']) expect(out).not.toContain(leak);
    // The per-chat token and session key are in Codex's environment but, matching *TOKEN* / *KEY*, kept
    // from the agent's commands: they reach the agent's `angelia` commands through the chat's mailbox
    // identity file instead (src/main/core/launch/mailbox.ts).
    expect(out).not.toMatch(/^ANGELIA_API_TOKEN=/m);
    expect(out).toMatch(new RegExp(`^npm_config_cache=${i.paths.cacheRoot}/[0-9a-f]{16}/npm$`, 'm'));
  });

  it('runs a sandbox = false profile with full access and reports it as disabled', async () => {
    const i = await setup({ permission_mode: 'bypassPermissions', sandbox: false });
    const r = await attempt(i);
    expect(r.refusal).toBeNull();
    expect(r.enforcement).toBe('disabled');
  });
});

describe('MCP servers the profile is given', () => {
  it('start with the agent, and a server that fails to start is told in the chat while the agent goes on', async () => {
    const i = await setup();
    const table = {
      capabilities: { broken: { kind: 'mcp', command: join(i.root, 'no-such-server'), when: 'never' } },
      profiles: { coder: { cwd: i.cwd.coder, permission_mode: 'default', capabilities: ['broken'] } },
    };
    await writeFile(i.paths.tableFile, stringify(table));
    await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));
    orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
    const chat = orch.chat('coder');
    chat.send('hello');
    await chat.idle();
    const items = chat.transcript.all();
    expect(chat.view().refusal).toBeNull();
    expect(items.some((it) => it.type === 'notice' && /MCP server broken failed to start/.test(it.text))).toBe(true);
    expect(items.find((it) => it.type === 'agent')).toMatchObject({ text: 'should never be asked' });
  });
});
