import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { CodexConnection } from '../../../src/main/core/codex/connection';
import { CodexClient, type CodexClientOptions } from '../../../src/main/core/codex/client';
import { CodexExitedError, CodexStartError, CodexTimeoutError } from '../../../src/main/core/codex/clientErrors';
import { pgidOf, treeMembers, waitFor, waitGone, waitTreeEmpty } from './processes';

/** Sends one of the fake server's own test methods (not in the generated protocol) through the port. */
const fakeRequest = (conn: CodexConnection, method: string, params: unknown): Promise<unknown> =>
  (conn.request as unknown as (m: string, p: unknown) => Promise<unknown>)(method, params);

const FAKE = join(process.cwd(), 'test', 'fixtures', 'fake-app-server.mjs');
const started: CodexClient[] = [];

function options(env: Record<string, string>, more: Partial<CodexClientOptions> = {}): CodexClientOptions {
  return { bin: process.execPath, args: [FAKE, 'app-server'], cwd: process.cwd(), env: { ...process.env, ...env }, ...more };
}

async function startFake(env: Record<string, string> = {}, more: Partial<CodexClientOptions> = {}): Promise<CodexClient> {
  const c = await CodexClient.start(options(env, more));
  started.push(c);
  return c;
}

/** Resolves with the params of the first notification `method` (after `trigger` ran). */
function nextNotification(c: CodexClient, method: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const off = c.onNotification((m, p) => {
      if (m !== method) return;
      off();
      resolve(p as Record<string, unknown>);
    });
  });
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

afterEach(async () => {
  for (const c of started.splice(0)) c.kill();
});

describe('CodexClient handshake', () => {
  it('initializes with Angelia client info and experimentalApi, reads the version, skips banner lines', async () => {
    const issues: unknown[] = [];
    const c = await startFake({ FAKE_CODEX_VERSION: '0.170.1', FAKE_BANNER: '1' }, { onProtocolIssue: (i) => issues.push(i) });
    expect(c.version).toBe('0.170.1');
    expect(c.initializeResult.userAgent).toMatch(/^angelia\/0\.170\.1 /);
    expect((c.initializeResult as unknown as { fakeCapabilities: unknown }).fakeCapabilities).toEqual({ experimentalApi: true, requestAttestation: false });
    expect(issues).toMatchObject([{ kind: 'not-json', preview: 'Welcome!' }, { kind: 'not-json' }]);
    expect(c.pid).toBeGreaterThan(0);
  });

  it('rejects start() with the exit code and stderr tail when the process exits before answering', async () => {
    const e = await rejection(CodexClient.start(options({ FAKE_EXIT_AT_START: '2' })));
    expect(e).toBeInstanceOf(CodexStartError);
    const err = e as CodexStartError;
    expect(err.exit?.code).toBe(2);
    expect(err.exit?.stderrTail).toContain('Error: fake config error: permissions.x is invalid');
    expect(err.message).toMatch(/exited with code 2 before answering initialize.*configuration error/s);
  });

  it('rejects start() when initialize is not answered in time, and leaves no process', async () => {
    const e = await rejection(CodexClient.start(options({ FAKE_SILENT_ON: 'initialize', FAKE_SPAWN_SLEEP: '1' }, { initializeTimeoutMs: 300 })));
    expect(e).toBeInstanceOf(CodexStartError);
    expect((e as Error).message).toMatch(/did not answer initialize within 300 ms/);
    expect((e as CodexStartError).exit?.signal).toBe('SIGKILL');
    const pid = (e as CodexStartError).pid ?? -1;
    expect(pid).toBeGreaterThan(0);
    expect(await waitTreeEmpty(pid)).toEqual([]);
  });
});

describe('CodexClient requests', () => {
  it('rejects every pending request when the process exits, with the exit code and stderr tail', async () => {
    const c = await startFake({ FAKE_SILENT_ON: 'thread/start', FAKE_CRASH_ON: 'turn/start', FAKE_CRASH_STDERR: 'fatal: simulated crash 猫' });
    const pending = c.request('thread/start', { cwd: '/w' });
    const crashing = c.request('turn/start', { threadId: 't', input: [] });
    const [e1, e2] = await Promise.all([rejection(pending), rejection(crashing)]);
    for (const [e, method] of [
      [e1, 'thread/start'],
      [e2, 'turn/start'],
    ] as const) {
      expect(e).toBeInstanceOf(CodexExitedError);
      expect((e as CodexExitedError).exit.code).toBe(3);
      expect((e as CodexExitedError).exit.stderrTail).toContain('fatal: simulated crash 猫');
      expect((e as Error).message).toContain(`exited with code 3 before answering ${method}`);
    }
    const late = await rejection(c.request('model/list', {}));
    expect(late).toBeInstanceOf(CodexExitedError);
    expect((await c.exited).code).toBe(3);
  });

  it('retries -32001 "Server overloaded" and succeeds', async () => {
    const c = await startFake({ FAKE_OVERLOAD: '3' });
    await expect(c.request('model/list', {})).resolves.toEqual({ tries: 4 });
  });

  it('gives up after 5 tries and surfaces the -32001 error', async () => {
    const c = await startFake({ FAKE_OVERLOAD: '5' }, { retry: { tries: 5, baseDelayMs: 5, maxDelayMs: 20 } });
    const e = await rejection(c.request('model/list', {}));
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as ResponseError<unknown>).code).toBe(-32001);
    // The fake counts every try: the 6th is the first to succeed.
    await expect(c.request('model/list', {})).resolves.toEqual({ tries: 6 });
  });

  it('times out a request with an error naming the method; the connection stays usable', async () => {
    const c = await startFake({ FAKE_SILENT_ON: 'thread/start' });
    const e = await rejection(c.request('thread/start', { cwd: '/w' }, { timeoutMs: 200 }));
    expect(e).toBeInstanceOf(CodexTimeoutError);
    expect((e as Error).message).toMatch(/did not answer thread\/start within 200 ms/);
    await expect(c.request('config/read', { includeLayers: true })).resolves.toEqual({ echo: 'config/read', params: { includeLayers: true } });
  });

  it('decodes a delta whose UTF-8 bytes arrive split, with a raw U+2028 inside', async () => {
    const c = await startFake();
    const conn: CodexConnection = c;
    const delta = nextNotification(c, 'item/agentMessage/delta');
    await fakeRequest(conn, 'fake/streamDelta', {});
    expect((await delta).delta).toBe('猫😀\u2028end');
  });
});

describe('CodexClient server requests', () => {
  it('answers an unknown server request with -32601 at once, even while a known one waits on the handler', async () => {
    const c = await startFake();
    const conn: CodexConnection = c;
    const seen: [string, string | number][] = [];
    const unknown: string[] = [];
    c.onUnknownServerRequest((m) => unknown.push(m));
    c.onServerRequest(async (method, _params, id) => {
      seen.push([method, id]);
      if (method === 'item/commandExecution/requestApproval') return new Promise(() => undefined);
      if (method === 'item/fileChange/requestApproval') throw new ResponseError(-32602, 'bad change');
      return { permissions: {}, scope: 'turn' };
    });
    const answered: Record<string, unknown>[] = [];
    const three = new Promise<void>((resolve) => {
      c.onNotification((m, p) => {
        if (m !== 'fake/answered') return;
        answered.push(p as Record<string, unknown>);
        if (answered.length === 3) resolve();
      });
    });
    await fakeRequest(conn, 'fake/sendServerRequests', {
      methods: ['item/commandExecution/requestApproval', 'item/tool/somethingNew', 'item/fileChange/requestApproval', 'item/permissions/requestApproval'],
    });
    await three;
    const byMethod = Object.fromEntries(answered.map((a) => [a.method as string, a.response]));
    expect(byMethod['item/tool/somethingNew']).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(byMethod['item/fileChange/requestApproval']).toMatchObject({ id: 2, error: { code: -32602, message: 'bad change' } });
    expect(byMethod['item/permissions/requestApproval']).toEqual({ id: 3, result: { permissions: {}, scope: 'turn' } });
    expect(byMethod['item/commandExecution/requestApproval']).toBeUndefined();
    expect(unknown).toEqual(['item/tool/somethingNew']);
    // Server ids start at 0 like ours (initialize was our id 0): routed by `method`, handed to the handler.
    expect(seen).toEqual([
      ['item/commandExecution/requestApproval', 0],
      ['item/fileChange/requestApproval', 2],
      ['item/permissions/requestApproval', 3],
    ]);
  });

  it('answers -32601 when no handler is set', async () => {
    const c = await startFake();
    const conn: CodexConnection = c;
    const answer = nextNotification(c, 'fake/answered');
    await fakeRequest(conn, 'fake/sendServerRequests', { methods: ['item/commandExecution/requestApproval'] });
    expect((await answer).response).toMatchObject({ id: 0, error: { code: -32601 } });
  });
});

describe('CodexClient stop and kill', () => {
  it('stop() ends the app-server, the `sleep 600` in its group and one that moved to a group of its own', async () => {
    const c = await startFake({ FAKE_SPAWN_SLEEP: '2' });
    const init = c.initializeResult as unknown as { fakeSleepPid: number; fakeOwnGroupSleepPid: number };
    const ownGroupPid = init.fakeOwnGroupSleepPid;
    expect(await waitFor(() => pgidOf(ownGroupPid) === ownGroupPid)).toBe(true);
    expect(treeMembers(c.pid).sort()).toEqual([c.pid, init.fakeSleepPid, ownGroupPid].sort());
    await c.stop();
    expect((await c.exited).code).toBe(0);
    expect(await waitGone(c.pid)).toBe(true);
    expect(await waitGone(init.fakeSleepPid)).toBe(true);
    expect(await waitGone(ownGroupPid)).toBe(true);
    expect(await waitTreeEmpty(c.pid)).toEqual([]);
  });

  it('stop() escalates to SIGKILL when the app-server ignores stdin close and SIGTERM', async () => {
    const c = await startFake({ FAKE_SPAWN_SLEEP: '1', FAKE_TRAP_TERM: '1', FAKE_SILENT_ON: 'thread/start' }, { stopGraceMs: 200 });
    const sleepPid = (c.initializeResult as unknown as { fakeSleepPid: number }).fakeSleepPid;
    const pending = c.request('thread/start', { cwd: '/w' }, { timeoutMs: 60_000 });
    const [e] = await Promise.all([rejection(pending), c.stop()]);
    expect((await c.exited).signal).toBe('SIGKILL');
    expect(e).toBeInstanceOf(CodexExitedError);
    expect(await waitGone(c.pid)).toBe(true);
    expect(await waitGone(sleepPid)).toBe(true);
    expect(await waitTreeEmpty(c.pid)).toEqual([]);
  });
});
