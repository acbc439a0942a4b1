/**
 * `POST /ask` on real codex 0.169.0 in its real Linux sandbox (scripted model), over the real socket:
 * the answer comes from a READ-ONLY FORK of the chat's current thread on a short-lived app-server of its
 * own (docs/api-ask.md). The copy sees the conversation so far, cannot write (the profile's folder and
 * /tmp are read-only there, the floor still denies), and leaves the chat alone: no item in its
 * transcript, no turn counted, nothing of the question in the chat's next model request, its running
 * turn untouched. A chat with no thread yet is answered by a fresh read-only thread. Every copy's
 * process has exited when its answer arrives, and shutting Angelia down stops a copy still working.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { chatToken } from '../../src/main/core/api/tokens';
import { ASK_FRAME } from '../../src/main/core/chats/ask';
import type { CodexConnection, CodexExit } from '../../src/main/core/codex/connection';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient, type CodexStartSpec } from '../../src/main/core/codex/start';
import { lastUserText, turnToolCalls } from '../../src/main/demo/scriptedModel';
import { apiCoreFromOrchestrator, type OrchestratorApiCore } from '../../src/main/api/orchestratorCore';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { call } from '../api/helpers';
import { makeInstance, type TestInstance, type TestProfile } from '../fixtures/instance';

let inst: TestInstance;
let orch: Orchestrator;
let core: OrchestratorApiCore;
let api: RunningApi;
let owner = '';
/** Every Codex started, with its argv and its exit. */
const started: { args: string[]; ask: boolean; exited: Promise<CodexExit>; done: boolean }[] = [];

/** What the read-only copy runs when told to try writing: its cwd, /tmp, and a floor file. */
function writeScript(): string {
  return [
    'echo x > ask-wrote.txt; echo "cwd exit $?"',
    'echo y > /tmp/ask-wrote-$$.txt; echo "tmp exit $?"',
    `cat '${inst.secret}' >/dev/null 2>&1; echo "secret exit $?"`,
    'cat seen.txt',
  ].join('\n');
}

beforeAll(async () => {
  inst = await makeInstance(
    {
      coder: { permission_mode: 'acceptEdits', answer_from: ['research'] } as TestProfile,
      research: { permission_mode: 'acceptEdits' },
    },
    {
      script: (body) => {
        const text = lastUserText(body) ?? '';
        const all = JSON.stringify(body);
        const calls = turnToolCalls(body);
        if (calls.length) return { message: `tried:\n${calls.map((c) => c.output ?? '').join('\n')}` };
        if (text.endsWith('try to write')) return { exec: { cmd: writeScript(), login: false, yield_time_ms: 30_000 } };
        if (text.endsWith('what came first?'))
          return { message: all.includes('first question') && all.includes('first answer') ? 'history: yes' : 'history: no' };
        if (text === 'long task' || text.endsWith('never answer')) return { hang: true };
        if (text === 'first question') return { message: 'first answer' };
        return { message: `echo: ${text.split('\n').at(-1) ?? ''}` };
      },
    },
  );
  await import('node:fs/promises').then((fs) => fs.writeFile(join(inst.cwd.coder!, 'seen.txt'), 'the copy reads the folder\n'));
  const startCodex = async (spec: CodexStartSpec): Promise<CodexConnection> => {
    const conn = await startCodexClient(spec);
    const entry = { args: spec.args, ask: spec.env?.ANGELIA_ASK === '1', exited: conn.exited, done: false };
    void conn.exited.then(() => (entry.done = true));
    started.push(entry);
    return conn;
  };
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex, audit: memoryAudit(), watchTable: false });
  core = apiCoreFromOrchestrator(orch, { paths: inst.paths, env: inst.env });
  api = await startApi({
    core,
    socketPath: inst.paths.apiSock,
    tokenFile: inst.paths.apiToken,
    stateDir: inst.paths.stateDir,
    home: inst.paths.home,
    codexHome: inst.paths.codexHome,
    env: inst.env,
  });
  owner = (await import('node:fs/promises').then((fs) => fs.readFile(inst.paths.apiToken, 'utf8'))).trim();
});

afterAll(async () => {
  await api?.close();
  core?.close();
  await orch?.shutdown();
  await inst?.cleanup();
});

/** `POST /ask` over the socket, as the owner or as chat `from`'s agent. */
async function ask(text: string, from: string | null = null): Promise<{ status: number; body: unknown }> {
  const res = await call(inst.paths.apiSock, 'POST', '/ask', {
    token: from ? chatToken(owner, from) : owner,
    body: { key: 'coder', text, ...(from ? { from } : {}) },
  });
  return { status: res.status, body: res.body };
}

/** The copies started for asks (the read-only compile variant: no write entry, `ANGELIA_ASK=1`). */
const copies = (): typeof started =>
  started.filter((s) => s.ask && !s.args.some((a) => a.startsWith('permissions.angelia.filesystem=') && a.includes('= "write"')));

describe("/ask answers from a read-only copy of the chat's session (real codex, real sandbox)", () => {
  it('a chat with no thread yet: a fresh read-only thread answers, and the chat stays empty', async () => {
    const res = await ask('what came first?');
    expect(res, JSON.stringify(res.body)).toEqual({ status: 200, body: { answer: 'history: no' } });
    expect(orch.chat('coder').transcript.all()).toEqual([]);
    expect(orch.sessionViews('coder')).toEqual([]);
    expect(copies()).toHaveLength(1);
    expect(copies().every((c) => c.done)).toBe(true);
  });

  it("the copy knows the conversation so far; the chat's transcript, turns and next model request know nothing of the question", async () => {
    const coder = orch.chat('coder');
    coder.send('first question');
    await coder.idle();
    const before = coder.transcript.all();
    const turns = orch.sessionViews('coder')[0]?.turns;
    expect(turns).toBe(1);
    const res = await ask('what came first?', 'research');
    expect(res, JSON.stringify(res.body)).toEqual({ status: 200, body: { answer: 'history: yes' } });
    const asked = inst.model.modelRequests().at(-1)?.body;
    expect(lastUserText(asked)).toBe(`${ASK_FRAME}\n\n[from research]\n\nwhat came first?`);
    expect(coder.transcript.all()).toEqual(before);
    expect(orch.sessionViews('coder')[0]?.turns).toBe(1);
    expect(coder.view().state).toBe('idle');
    coder.send('second question');
    await coder.idle();
    const next = JSON.stringify(inst.model.modelRequests().at(-1)?.body);
    expect(next).toContain('second question');
    expect(next).toContain('first answer');
    expect(next).not.toContain('what came first?');
    expect(next).not.toContain(ASK_FRAME);
    expect(copies().every((c) => c.done)).toBe(true);
  });

  it('the copy cannot write: its folder is read-only, /tmp is not there, the floor still denies; it reads the folder', async () => {
    const res = await ask('try to write');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = (res.body as { answer: string }).answer;
    // stderr and stdout are gathered apart: the refusals come first, then the exit codes.
    expect(answer).toContain('ask-wrote.txt: Read-only file system');
    // /tmp is not granted, so it does not exist in the sandbox (docs/security-model.md).
    expect(answer).toMatch(/\/tmp\/ask-wrote-[0-9]+\.txt: No such file or directory/);
    expect(answer).toContain('cwd exit 1');
    expect(answer).toContain('tmp exit 1');
    expect(answer).toMatch(/secret exit [1-9]/);
    expect(answer).toContain('the copy reads the folder');
    expect(existsSync(join(inst.cwd.coder!, 'ask-wrote.txt'))).toBe(false);
    expect(
      orch
        .chat('coder')
        .transcript.all()
        .some((i) => i.type === 'command'),
    ).toBe(false);
  });

  it("answers while the chat's own turn runs, and leaves that turn running", async () => {
    const coder = orch.chat('coder');
    coder.send('long task');
    for (let i = 0; i < 300 && coder.view().state !== 'working'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(coder.view().state).toBe('working');
    const res = await ask('still there?');
    expect(res).toEqual({ status: 200, body: { answer: 'echo: still there?' } });
    expect(coder.view().state).toBe('working');
    expect(await orch.api().handlers['chats:interrupt']({ chatId: 'coder' })).toEqual({ interrupted: true });
    await coder.idle();
    expect(copies().length).toBe(4);
    await Promise.all(copies().map((c) => c.exited));
  });

  it('refuses what the policy refuses, before any copy starts', async () => {
    const n = copies().length;
    const res = await ask('hello', 'coder');
    expect(res.status).toBe(403);
    const theirs = await call(inst.paths.apiSock, 'POST', '/ask', { token: chatToken(owner, 'coder'), body: { key: 'research', text: 'hi', from: 'coder' } });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ code: 'not-accepted' });
    expect(copies().length).toBe(n);
  });

  it('shutting Angelia down stops an ask in flight and waits for its process (last: it stops this instance)', async () => {
    const n = copies().length;
    const pending = orch.ask('coder', 'never answer', { timeoutMs: 600_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    for (let i = 0; i < 600 && copies().length === n; i++) await new Promise((r) => setTimeout(r, 50));
    expect(copies().length).toBe(n + 1);
    await orch.shutdown();
    expect(copies().at(-1)!.done).toBe(true);
    expect(await pending).toMatchObject({ app: { code: 'ask-aborted' } });
  });
});
