/**
 * CodexClient against the REAL `codex app-server` of the pinned @openai/codex 0.169.0. Offline: a mock
 * model provider on a closed port (thread/start makes no model request), an empty fresh CODEX_HOME
 * outside /tmp, RUST_LOG=warn.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { CodexClient, type CodexClientOptions } from '../../src/main/core/codex/client';
import { CodexExitedError, CodexStartError } from '../../src/main/core/codex/clientErrors';
import { resolveCodexBin } from '../../src/main/core/codex/resolve';
import { codexEnv } from '../../src/main/core/launch/env';
import { startScriptedModel, type ScriptedModel } from '../../src/main/demo/scriptedModel';
import { waitFor, waitTreeEmpty } from '../core/codex/processes';

const OFFLINE_FLAGS = [
  '-c',
  'model_provider="mock"',
  '-c',
  'model_providers.mock={name="Mock", base_url="http://127.0.0.1:9/v1", wire_api="responses", requires_openai_auth=false, request_max_retries=0, stream_max_retries=0, supports_websockets=false}',
  '-c',
  'model="gpt-5.5"',
  '-c',
  'check_for_update_on_startup=false',
];

let root: string;
let workDir: string;

beforeAll(async () => {
  const base = join(process.cwd(), '.angelia-test');
  await mkdir(base, { recursive: true });
  root = await mkdtemp(join(base, 'codex-client-'));
  workDir = join(root, 'work');
  await mkdir(workDir);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Options for a real app-server with a fresh, empty CODEX_HOME and `extraArgs` before "app-server". */
async function realOptions(extraArgs: string[] = [], baseUrl = 'http://127.0.0.1:9/v1'): Promise<CodexClientOptions> {
  const codex = resolveCodexBin();
  const codexHome = await mkdtemp(join(root, 'home-'));
  return {
    bin: codex.path,
    args: [...OFFLINE_FLAGS.map((f) => f.replace('http://127.0.0.1:9/v1', baseUrl)), ...extraArgs, 'app-server'],
    cwd: workDir,
    env: { ...codexEnv(process.env, codex), CODEX_HOME: codexHome, RUST_LOG: 'warn' },
  };
}

describe('CodexClient with the real codex app-server', () => {
  it('initializes (version 0.171.0) and starts a thread; stop() leaves no process in its group', async () => {
    const client = await CodexClient.start(await realOptions());
    try {
      expect(client.version).toBe('0.171.0');
      expect(client.initializeResult.userAgent).toMatch(/^angelia\/0\.171\.0 /);
      expect(client.initializeResult.platformFamily).toBe('unix');
      const res = await client.request('thread/start', { cwd: workDir, approvalPolicy: 'on-request', approvalsReviewer: 'user' });
      expect(res.thread.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.approvalPolicy).toBe('on-request');
      expect(res.modelProvider).toBe('mock');
      // A method without params (the `params` member is omitted on the wire).
      const req = await client.request('configRequirements/read', undefined);
      expect(req).toHaveProperty('requirements');
      // Codex's JSON-RPC errors come through as ResponseError with Codex's code and message.
      const missing = await client.request('thread/resume', { threadId: '01a22d78-0000-7000-8000-000000000000' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(missing).toBeInstanceOf(ResponseError);
      expect(missing).toMatchObject({ code: -32600, message: 'no rollout found for thread id 01a22d78-0000-7000-8000-000000000000' });
      // Real stderr (tracing, coloured) is kept without ANSI codes.
      expect(client.stderrTail()).not.toContain('\u001b[');
    } finally {
      await client.stop();
    }
    expect((await client.exited).signal).toBeNull();
    expect(await waitTreeEmpty(client.pid)).toEqual([]);
  });

  it("rejects start() with Codex's error from stderr when a -c flag is fatal", async () => {
    let error: unknown = null;
    await CodexClient.start(await realOptions(['-c', 'permissions.angelia.filesystem."/x"="deny"'])).catch((e: unknown) => {
      error = e;
    });
    expect(error).toBeInstanceOf(CodexStartError);
    const e = error as CodexStartError;
    expect(e.exit?.code).toBe(1);
    expect(e.exit?.stderrTail).toContain('Error: config defines `[permissions]` profiles but does not set `default_permissions`');
    expect(e.message).toContain('before answering initialize: Error: config defines `[permissions]` profiles');
  });

  it('reports the quoted-path pitfall the same way when default_permissions is set', async () => {
    const error = await CodexClient.start(await realOptions(['-c', 'default_permissions="angelia"', '-c', 'permissions.angelia.filesystem."/x"="deny"'])).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CodexStartError);
    expect((error as CodexStartError).exit?.stderrTail).toContain('Error: filesystem path `"/x"` must be absolute');
  });

  it('rejects a pending request when the child is killed with SIGKILL from outside', async () => {
    const client = await CodexClient.start(await realOptions());
    // Stopped first, so Codex cannot answer before the kill however the machine schedules this process
    // (on a loaded machine thread/start could be answered between the request and the kill).
    process.kill(client.pid, 'SIGSTOP');
    const pending = client.request('thread/start', { cwd: workDir, approvalPolicy: 'on-request', approvalsReviewer: 'user' });
    process.kill(client.pid, 'SIGKILL');
    const error = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CodexExitedError);
    expect((error as CodexExitedError).exit.signal).toBe('SIGKILL');
    expect((error as Error).message).toContain('was killed by SIGKILL before answering thread/start');
    expect(await waitTreeEmpty(client.pid)).toEqual([]);
  });
});

/** Pids of live processes whose command line contains `needle`. */
function processesWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').includes(needle)) out.push(Number(name));
    } catch {
      // Ended while scanning.
    }
  }
  return out;
}

describe('no process outlives the app-server (real sandboxed turn)', () => {
  let model: ScriptedModel;

  beforeAll(async () => {
    model = await startScriptedModel();
  });

  afterAll(async () => {
    await model.close();
  });

  /**
   * Runs one turn under a permission profile with a "deny" entry: an apply_patch (measured: Codex then
   * leaves `bwrap … --codex-run-as-fs-helper` processes in process groups of their own, re-parented to
   * init, in the app-server's session) and a command `sleep <marker>` left running in a background terminal.
   */
  async function busyTurn(client: CodexClient, marker: string): Promise<void> {
    model.enqueue(
      { patch: `*** Begin Patch\n*** Add File: ${join(workDir, `${marker}.txt`)}\n+hello\n*** End Patch\n` },
      { exec: { cmd: `sleep ${marker}`, yield_time_ms: 250 } },
      { message: 'started it' },
    );
    const thread = await client.request('thread/start', { cwd: workDir, approvalPolicy: 'never' });
    const completed = new Promise<unknown>((resolve) => {
      client.onNotification((m, p) => {
        if (m === 'turn/completed') resolve(p);
      });
    });
    await client.request('turn/start', { threadId: thread.thread.id, input: [{ type: 'text', text: 'start it', text_elements: [] }] });
    expect(await completed).toMatchObject({ turn: { status: 'completed' } });
  }

  /** `-c` flags of a profile that extends :workspace and denies one folder. */
  function denyProfile(): string[] {
    return [
      '-c',
      'default_permissions="angelia"',
      '-c',
      'permissions.angelia.extends=":workspace"',
      '-c',
      `permissions.angelia.filesystem={"${join(root, 'secret')}"="deny"}`,
    ];
  }

  for (const how of ['stop', 'kill'] as const) {
    it(`${how}() ends Codex, its sandbox helpers (own process groups) and a background \`sleep\` started by a turn`, async () => {
      await mkdir(join(root, 'secret'), { recursive: true });
      const client = await CodexClient.start(await realOptions(denyProfile(), model.baseUrl));
      const marker = `600.${process.pid}${Date.now() % 100000}${how === 'stop' ? 1 : 2}`;
      await busyTurn(client, marker);
      expect(await waitFor(() => processesWith(`sleep ${marker}`).length > 0)).toBe(true);
      expect(processesWith(workDir).length).toBeGreaterThan(0);
      if (how === 'stop') await client.stop();
      else client.kill();
      await client.exited;
      expect(await waitFor(() => processesWith(`sleep ${marker}`).length === 0)).toBe(true);
      // Codex's bwrap helpers name the workspace (sandbox-policy-cwd) in their command line.
      expect(await waitFor(() => processesWith(workDir).length === 0)).toBe(true);
      expect(await waitTreeEmpty(client.pid)).toEqual([]);
    });
  }
});
