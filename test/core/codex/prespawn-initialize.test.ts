/**
 * The early `initialize` of `angelia run`'s early Codex start (core/codex/prespawn.ts): the child started
 * from the chat's last launch is sent Angelia's `initialize` at once; `CodexClient.start` adopts it, takes
 * that answer instead of asking again (Codex refuses a second `initialize`), loses none of what Codex wrote
 * around the answer, and sends `initialized`. A child sent other params is not adopted. On the fake
 * app-server (test/fixtures/fake-app-server.mjs, which reports what it received) and on the real pinned codex.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodexClient } from '../../../src/main/core/codex/client';
import { CodexStartError } from '../../../src/main/core/codex/clientErrors';
import { initializeParams } from '../../../src/main/core/codex/initialize';
import { adoptPrespawned, prespawnCodex, prespawnedPid, rememberLaunch, type PrespawnSpec } from '../../../src/main/core/codex/prespawn';
import { resolveCodexBin } from '../../../src/main/core/codex/resolve';
import { freshDir, writeOfflineCodexHome } from '../../../src/main/demo/codexHome';
import { waitGone } from './processes';

const FAKE = join(process.cwd(), 'test', 'fixtures', 'fake-app-server.mjs');
let state: string;
const clients: CodexClient[] = [];

beforeEach(() => {
  state = mkdtempSync(join(process.cwd(), '.angelia-test', 'prespawn-init-'));
});
afterEach(async () => {
  adoptPrespawned({ bin: '', args: [], cwd: '', env: {} });
  for (const c of clients.splice(0)) await c.stop();
  rmSync(state, { recursive: true, force: true });
});

function fakeSpec(env: Record<string, string> = {}): PrespawnSpec {
  return { bin: process.execPath, args: [FAKE, 'app-server'], cwd: state, env: { ...process.env, ...env } };
}

describe('the early initialize of `angelia run`', () => {
  it('is answered once: the client takes that answer, keeps every line Codex wrote around it, and sends initialized', async () => {
    const spec = fakeSpec({ FAKE_BANNER: '1', FAKE_AFTER_INIT: '1' });
    rememberLaunch(state, 'coder', spec, process.env);
    prespawnCodex(state, 'coder', process.env, initializeParams());
    const early = prespawnedPid();
    expect(early).not.toBeNull();
    const dropped: string[] = [];
    const client = await CodexClient.start({
      ...spec,
      onProtocolIssue: (issue) => {
        if (issue.kind !== 'log') dropped.push(JSON.stringify(issue));
      },
    });
    clients.push(client);
    expect(client.pid).toBe(early);
    expect(client.initializeResult.userAgent).toMatch(/^angelia\/0\.169\.0 /);
    const { seen } = await client.request('fake/seen' as never, {} as never) as { seen: { id: unknown; method: string }[] };
    // One initialize, the early one, then `initialized`, then this request: nothing sent twice.
    expect(seen.map((m) => m.method)).toEqual(['initialize', 'initialized', 'fake/seen']);
    expect(seen[0]!.id).toBe('angelia-early-initialize');
    // The lines Codex wrote before the answer (the banner) and in the same write after it reached the client's reader, in order.
    expect(dropped.join('\n')).toMatch(/Welcome![\s\S]*2004h[\s\S]*after-init/);
  });

  it('is not adopted by a start that would send other params: that child is killed and Codex spawned afresh', async () => {
    const spec = fakeSpec();
    rememberLaunch(state, 'coder', spec, process.env);
    prespawnCodex(state, 'coder', process.env, initializeParams('someone-else'));
    const early = prespawnedPid()!;
    const client = await CodexClient.start(spec);
    clients.push(client);
    expect(client.pid).not.toBe(early);
    expect(await waitGone(early)).toBe(true);
    const { seen } = await client.request('fake/seen' as never, {} as never) as { seen: { id: unknown; method: string }[] };
    expect(seen[0]).toEqual({ id: 0, method: 'initialize' });
  });

  it('a child that was sent nothing early is adopted and initialized by the client as before', async () => {
    const spec = fakeSpec();
    rememberLaunch(state, 'coder', spec, process.env);
    prespawnCodex(state, 'coder', process.env);
    const early = prespawnedPid();
    const client = await CodexClient.start(spec);
    clients.push(client);
    expect(client.pid).toBe(early);
    const { seen } = await client.request('fake/seen' as never, {} as never) as { seen: { id: unknown; method: string }[] };
    expect(seen.map((m) => m.method)).toEqual(['initialize', 'initialized', 'fake/seen']);
    expect(seen[0]!.id).toBe(0);
  });

  it('a child that exits before answering fails the start with its exit, as a normal start does', async () => {
    const spec = fakeSpec({ FAKE_EXIT_AT_START: '4' });
    rememberLaunch(state, 'coder', spec, process.env);
    prespawnCodex(state, 'coder', process.env, initializeParams());
    const err = await CodexClient.start(spec).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(CodexStartError);
    expect((err as CodexStartError).exit).toMatchObject({ code: 4 });
    expect((err as Error).message).toContain('fake config error');
  });

  it('works on the real pinned codex: adopted, initialized once, and a thread starts', { timeout: 60_000 }, async () => {
    const home = await freshDir('prespawn-codex-home');
    try {
      await writeOfflineCodexHome(home, { modelBaseUrl: 'http://127.0.0.1:9/v1' });
      const codex = resolveCodexBin(undefined, { env: process.env });
      const env: NodeJS.ProcessEnv = { ...process.env, ...codex.env, CODEX_HOME: home, RUST_LOG: 'warn' };
      for (const k of codex.unsetEnv) delete env[k];
      const spec: PrespawnSpec = { bin: codex.path, args: ['app-server'], cwd: state, env };
      rememberLaunch(state, 'coder', spec, process.env);
      prespawnCodex(state, 'coder', process.env, initializeParams());
      const early = prespawnedPid();
      expect(early).not.toBeNull();
      const client = await CodexClient.start(spec);
      clients.push(client);
      expect(client.pid).toBe(early);
      expect(client.version).toBe('0.169.0');
      expect(client.initializeResult.codexHome).toBe(home);
      const started = await client.request('thread/start', { cwd: state });
      expect(started.thread.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
