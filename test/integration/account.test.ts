/**
 * The Codex account on the real pinned Codex (0.169.0) with a private CODEX_HOME under `<repo>/.angelia-test/`:
 * `angelia login --api-key` (the key on stdin) writes auth.json mode 600 and `angelia account --json` says
 * `apiKey`; the key is in no process's command line while it signs in, in no file of the state folder and
 * in no audit line; `angelia logout` removes auth.json. A sandboxed agent cannot read CODEX_HOME/auth.json.
 * A ChatGPT sign-in gives Codex's address and listens on 127.0.0.1:1455 until it is cancelled. A turn on a
 * provider that needs OpenAI auth and refuses the key (HTTP 401) ends with "Codex is not signed in, or …".
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { AccountService } from '../../src/main/core/account/service';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { offlineCodexConfig } from '../../src/main/demo/codexHome';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';
import { REPO_ROOT } from '../core/instance/testDir';

const KEY = `sk-angelia-test-${process.pid}-${Date.now()}`;
let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;

afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** Runs `angelia <args>` from the source entry with `env`, `input` on stdin; `during` runs while it lives. */
function angelia(env: NodeJS.ProcessEnv, args: string[], input = '', during?: () => void): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/index.ts'), ...args], { env, cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const poll = during ? setInterval(during, 20) : null;
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      done({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** Every process's command line that contains `text` (read from /proc/<pid>/cmdline). */
function cmdlinesWith(text: string): string[] {
  const hits: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (line.includes(text)) hits.push(`${pid}: ${line.replace(/\0/g, ' ')}`);
    } catch {
      // The process ended meanwhile.
    }
  }
  return hits;
}

/** Every file under `dir` whose content contains `text`. */
function filesWith(dir: string, text: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile() && readFileSync(p, 'utf8').includes(text)) out.push(p);
    } catch {
      // A socket or a file gone meanwhile.
    }
  }
  return out;
}

/** Rewrites the instance's Codex config so its model provider needs OpenAI auth (the key as a bearer token). */
function needsOpenaiAuth(i: TestInstance): void {
  const config = offlineCodexConfig({ modelBaseUrl: i.model.baseUrl }) as { model_providers: { mock: Record<string, unknown> } };
  config.model_providers.mock.requires_openai_auth = true;
  writeFileSync(join(i.paths.codexHome, 'config.toml'), stringify(config));
}

/** True while something listens on 127.0.0.1:1455 (/proc/net/tcp: local 0100007F:05AF, state 0A). */
const listening1455 = (): boolean => readFileSync('/proc/net/tcp', 'utf8').includes('0100007F:05AF 00000000:0000 0A');

describe('the Codex account (real codex, private CODEX_HOME)', () => {
  it('angelia login --api-key and logout: auth.json mode 600, account --json, the key nowhere else', async () => {
    inst = await makeInstance({ alpha: {} });
    // Measured: with a provider that needs no OpenAI auth, account/read says `account: null` even with auth.json.
    needsOpenaiAuth(inst);
    const env = { ...inst.env };
    const auth = join(inst.paths.codexHome, 'auth.json');
    const before = JSON.parse((await angelia(env, ['account', '--json'])).stdout);
    expect(before).toEqual({ codexHome: inst.paths.codexHome, signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: true });

    const seen: string[] = [];
    const login = await angelia(env, ['login', '--api-key'], `${KEY}\n`, () => seen.push(...cmdlinesWith(KEY)));
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(seen).toEqual([]);
    expect(statSync(auth).mode & 0o777).toBe(0o600);
    const after = JSON.parse((await angelia(env, ['account', '--json'])).stdout);
    expect(after).toMatchObject({ codexHome: inst.paths.codexHome, signedIn: true, method: 'apiKey' });
    expect(login.stdout + (await angelia(env, ['account'])).stdout).not.toContain(KEY);
    expect(filesWith(inst.paths.stateDir, KEY)).toEqual([]);

    const out = await angelia(env, ['logout']);
    expect(out.code).toBe(0);
    expect(existsSync(auth)).toBe(false);
    expect(JSON.parse((await angelia(env, ['account', '--json'])).stdout)).toMatchObject({ signedIn: false, method: null });
  });

  it('a sandboxed agent cannot read CODEX_HOME/auth.json, and the key is in no audit line', async () => {
    inst = await makeInstance({ alpha: {} }, { privateHome: true });
    const audit = memoryAudit();
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit });
    const signed = await orch.api().handlers['account:login']({ method: 'apiKey', apiKey: KEY });
    expect(signed).toMatchObject({ method: 'apiKey', state: 'completed', error: null });
    const auth = join(inst.paths.codexHome, 'auth.json');
    expect(readFileSync(auth, 'utf8')).toContain(KEY);
    inst.model.enqueue({ exec: { cmd: `cat ${auth}`, login: false } }, { message: 'done' });
    await turnOn(orch, 'alpha', 'read the login');
    // What the agent got back is what Codex sent the model with the command's call (measured on codex
    // 0.169.0: a `cat` that fails at once may come with no commandExecution item at all on an idle
    // machine, so the transcript is not where to look).
    const outputs = inst.model
      .modelRequests()
      .flatMap((r) => (Array.isArray(r.body?.input) ? r.body.input : []))
      .filter((it) => it.type === 'function_call_output')
      .map((it) => JSON.stringify(it));
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toContain('auth.json: Permission denied');
    expect(outputs[0]).not.toContain(KEY);
    expect(JSON.stringify(audit.records)).not.toContain(KEY);
    expect(filesWith(inst.paths.stateDir, KEY)).toEqual([]);
  });

  it('ChatGPT sign-in: Codex gives its address and listens on 127.0.0.1:1455 until cancelled', async () => {
    inst = await makeInstance({ alpha: {} });
    const ended: string[] = [];
    const service = new AccountService({ codexHome: inst.paths.codexHome, env: inst.env, start: startCodexClient, onLogin: (p) => ended.push(p.state) });
    const p = await service.login({ method: 'chatgpt' });
    expect(p.state).toBe('pending');
    expect(p.authUrl).toMatch(/^https:\/\/auth\.openai\.com\//);
    expect(p.authUrl).toContain('127.0.0.1%3A1455');
    expect(listening1455()).toBe(true);
    expect(await service.cancel(p.loginId as string)).toEqual({ cancelled: true });
    await until('the callback listener to close', () => !listening1455());
    expect(ended).toEqual(['cancelled']);
    expect(await service.cancel(p.loginId as string)).toEqual({ cancelled: false });
  });

  it('a turn on a provider that needs OpenAI auth and refuses the key (401) ends with "Codex is not signed in, or …"', async () => {
    inst = await makeInstance({ alpha: {} }, { script: () => ({ httpError: { status: 401, body: { error: { message: 'Invalid key' } } } }) });
    needsOpenaiAuth(inst);
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient });
    // Signed in (not signed in, the start is refused before any turn: test/integration/sign-in-gate.test.ts).
    expect(await orch.api().handlers['account:login']({ method: 'apiKey', apiKey: KEY })).toMatchObject({ state: 'completed' });
    expect(await orch.api().handlers['account:read']({})).toMatchObject({ signedIn: true, requiresOpenaiAuth: true });
    const items = await turnOn(orch, 'alpha', 'hello');
    const error = items.find((i) => i.type === 'error');
    expect(error?.type === 'error' && error.message).toMatch(/^Codex is not signed in/);
    expect(error?.type === 'error' && error.detail).toContain('angelia login');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'failed' });
  });
});
