/**
 * The agents' commands from a command the owner approved to run OUTSIDE the sandbox (an escalation), on
 * real codex 0.169.0 in its real Linux sandbox (scripted model; docs/sandbox-sockets.md "Approved
 * escalation"). Measured: Codex runs such a command with `/` writable but the profile's deny entries kept
 * (Angelia's mailboxes are denied, the chat's own write entry on its mailbox is dropped) and its seccomp
 * filter still on (every Unix socket, Angelia's included, gives EPERM), and `*TOKEN*` variables are kept
 * from it. So it has no channel to Angelia: `angelia send` says so plainly (exit 1, what to do instead)
 * instead of "Angelia is not running", and nothing arrives; the same command run inside the sandbox
 * arrives. Needs the built CLI (`npx electron-vite build`): the agent runs `<state>/bin/angelia`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCoreFromOrchestrator, type OrchestratorApiCore } from '../../src/main/api/orchestratorCore';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { lastUserText, turnToolCalls } from '../../src/main/demo/scriptedModel';
import type { ApprovalView, ChatItem } from '../../src/shared/contract';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance;
let orch: Orchestrator;
let core: OrchestratorApiCore;
let api: RunningApi;
const approved: ApprovalView[] = [];

/** A Node one-liner that connects to the Unix socket `path` and prints `<label> CONNECTED` or `<label> <code> <syscall>`. */
function probe(label: string, path: string): string {
  const js = `require('net').connect(${JSON.stringify(path)}).on('connect',()=>{console.log('${label} CONNECTED');process.exit(0)}).on('error',(e)=>{console.log('${label} '+e.code+' '+e.syscall);process.exit(1)})`;
  return `node -e ${JSON.stringify(js)}`;
}

function script(word: string): string {
  return [`angelia send coder ${word}; echo "send exit $?"`, 'echo "token in env: ${ANGELIA_API_TOKEN:-none}"', probe('API', inst.paths.apiSock), 'true'].join(
    '\n',
  );
}

beforeAll(async () => {
  inst = await makeInstance(
    { coder: { permission_mode: 'acceptEdits' } },
    {
      privateHome: true,
      script: (body) => {
        const calls = turnToolCalls(body);
        const text = lastUserText(body) ?? '';
        if (calls.length) return { message: `done\n${calls.map((c) => c.output ?? '').join('\n')}` };
        if (text === 'escalated')
          return {
            exec: { cmd: script('from-outside'), login: false, sandbox_permissions: 'require_escalated', justification: 'post a line', yield_time_ms: 30_000 },
          };
        if (text === 'inside') return { exec: { cmd: script('from-inside'), login: false, yield_time_ms: 30_000 } };
        return { message: 'ok' };
      },
    },
  );
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  core = apiCoreFromOrchestrator(orch, { paths: inst.paths, env: inst.env });
  api = await startApi({
    core,
    socketPath: inst.paths.apiSock,
    tokenFile: inst.paths.apiToken,
    stateDir: inst.paths.stateDir,
    home: inst.paths.home,
    codexHome: inst.paths.codexHome,
    env: inst.env,
    mailboxes: true,
  });
  // The owner approves the escalation (every command approval of this test).
  orch.hub.subscribe((e) => {
    if (e.event !== 'approval:updated' || e.payload.state !== 'pending') return;
    approved.push(e.payload);
    void orch.broker.answer(e.payload.id, 'allow', 'api');
  });
});

afterAll(async () => {
  await api?.close();
  core?.close();
  await orch?.shutdown();
  await inst?.cleanup();
});

/** Runs one message in chat coder and answers the output of its command. */
async function run(text: string): Promise<string> {
  const coder = orch.chat('coder');
  const before = coder.transcript.all().length;
  coder.send(text);
  await coder.idle();
  const cmd = coder.transcript
    .all()
    .slice(before)
    .find((i): i is Extract<ChatItem, { type: 'command' }> => i.type === 'command');
  expect(cmd?.status).toBe('completed');
  return cmd!.output;
}

const posted = (): string[] =>
  orch
    .chat('coder')
    .transcript.all()
    .filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice')
    .map((i) => i.text);

describe('angelia commands from an approved escalation (real codex, Linux sandbox)', () => {
  it('inside the sandbox the command arrives through the mailbox', async () => {
    const out = await run('inside');
    expect(out).toContain('sent\nsend exit 0');
    expect(out).toContain('API EPERM connect');
    expect(posted()).toContain('[from coder] from-inside');
    expect(approved).toEqual([]);
  });

  it('outside the sandbox it has no channel (mailbox denied, every socket EPERM, no token): it says so, exit 1, nothing arrives', async () => {
    const out = await run('escalated');
    expect(approved.map((a) => a.title)).toEqual([expect.stringMatching(/^Run OUTSIDE the sandbox/)]);
    expect(out).toContain("angelia send: this command cannot reach Angelia: your chat's mailbox");
    expect(out).toContain('(EACCES)');
    expect(out).toContain('Run angelia as an ordinary command, inside the sandbox');
    expect(out).toContain('send exit 1');
    expect(out).not.toContain('not running');
    expect(out).toContain('token in env: none');
    expect(out).toContain('API EPERM connect');
    expect(posted().some((t) => t.includes('from-outside'))).toBe(false);
  });
});
