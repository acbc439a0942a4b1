/**
 * Agents reaching Angelia from inside the sandbox, on real codex 0.169.0 in its real Linux sandbox (bubblewrap + seccomp, network
 * proxy on), with a scripted model: an agent's command runs `angelia send-media` and `angelia turn
 * <other chat>`, and both arrive (the file's private copy is shown in the asking chat, the other chat
 * runs the labelled turn), through the chat's mailbox, because the same command cannot reach any Unix
 * socket: neither Angelia's nor a second one served on this machine (`connect` → EPERM). The other
 * profile's agent cannot write into the first chat's mailbox. Needs the built CLI (`npx electron-vite
 * build`): the agent runs `<state>/bin/angelia`, i.e. this Node and `out/main/cli.js`, inside the sandbox:
 * first as `angelia` from PATH (a plain shell), then by the full path its instructions give (a login
 * shell, which resets PATH).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCoreFromOrchestrator, type OrchestratorApiCore } from '../../src/main/api/orchestratorCore';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { IDENTITY_FILE, mailboxDirFor } from '../../src/main/core/launch/mailbox';
import { lastUserText, turnToolCalls } from '../../src/main/demo/scriptedModel';
import type { ChatItem } from '../../src/shared/contract';
import { makeInstance, type TestInstance, type TestProfile } from '../fixtures/instance';

let inst: TestInstance;
let orch: Orchestrator;
let core: OrchestratorApiCore;
let api: RunningApi;
let decoy: Server;
let decoyPath = '';
let decoyConnections = 0;
const reports: string[] = [];

/** A Node one-liner that connects to the Unix socket `path` and prints `<label> CONNECTED` or `<label> <code> <syscall>`. */
function probe(label: string, path: string): string {
  const js = `require('net').connect(${JSON.stringify(path)}).on('connect',()=>{console.log('${label} CONNECTED');process.exit(0)}).on('error',(e)=>{console.log('${label} '+e.code+' '+e.syscall);process.exit(1)})`;
  return `node -e ${JSON.stringify(js)}`;
}

/** The `angelia` launcher a launch writes (and names in the agent's instructions). */
const launcher = (): string => join(inst.paths.stateDir, 'bin', 'angelia');

/** What the agent of chat `coder` runs first (plain shell): a file into its own chat, then the two socket probes. */
function coderScript(): string {
  return [
    "printf 'png' > chart.png",
    'angelia send-media coder chart.png the chart; echo "send-media exit $?"',
    probe('DECOY', decoyPath),
    probe('API', inst.paths.apiSock),
    'true',
  ].join('\n');
}

/** What it runs next, in a login shell (PATH reset by the profile scripts): a turn into `other`, by the full path. */
function coderTurnScript(): string {
  return `${launcher()} turn other hello; echo "turn exit $?"`;
}

/** What the agent of chat `other` runs: tries to write a request into coder's mailbox and to list it. */
function otherScript(): string {
  const box = mailboxDirFor(inst.paths.stateDir, 'coder');
  return [
    `echo '{}' > ${box}/00000000-0000-4000-8000-000000000000.req.json; echo "write exit $?"`,
    `ls ${box}; echo "ls exit $?"`,
    `cat ${box}/${IDENTITY_FILE}; echo "cat exit $?"`,
  ].join('\n');
}

beforeAll(async () => {
  inst = await makeInstance(
    {
      coder: { permission_mode: 'acceptEdits' },
      other: { permission_mode: 'acceptEdits', accept_from: ['coder'] } as TestProfile,
    },
    {
      script: (body) => {
        const calls = turnToolCalls(body);
        const text = lastUserText(body) ?? '';
        if (text === 'go' && calls.length === 1) return { exec: { cmd: coderTurnScript(), login: true, yield_time_ms: 30_000 } };
        if (calls.length) return { message: `done\n${calls.map((c) => c.output ?? '').join('\n')}` };
        if (text === 'go') return { exec: { cmd: coderScript(), login: false, yield_time_ms: 30_000 } };
        if (text.startsWith('[from coder]')) return { exec: { cmd: otherScript(), login: false, yield_time_ms: 30_000 } };
        return { message: 'ok' };
      },
    },
  );
  // The second socket: a plain server on this machine, outside the agent's folders, readable through `:root`.
  await mkdir(join(inst.root, 'decoy'), { recursive: true });
  decoyPath = join(inst.root, 'decoy', 'decoy.sock');
  decoy = createServer((s) => {
    decoyConnections += 1;
    s.end('hello-from-decoy\n');
  });
  await new Promise<void>((resolve) => decoy.listen(decoyPath, resolve));
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
    report: (m) => reports.push(m),
  });
});

afterAll(async () => {
  await api?.close();
  core?.close();
  await orch?.shutdown();
  await new Promise<void>((resolve) => (decoy ? decoy.close(() => resolve()) : resolve()));
  await inst?.cleanup();
});

/** The output of the chat's commands, joined. */
function commandOutput(items: readonly ChatItem[]): string {
  return items
    .filter((i): i is Extract<ChatItem, { type: 'command' }> => i.type === 'command')
    .map((i) => i.output)
    .join('\n');
}

/** Waits until `cond` holds (every 100 ms, at most 60 s). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!cond()) throw new Error('condition not met within 60 s');
}

describe("an agent's commands reach Angelia from the real sandbox, and no other socket", () => {
  it('send-media and turn <other chat> arrive through the mailbox while every Unix socket gives EPERM', async () => {
    const coder = orch.chat('coder');
    coder.send('go');
    await coder.idle();
    const items = coder.transcript.all();
    expect(coder.view().enforcement).toBe('managed');
    // The instructions name the launcher by its full path.
    expect(JSON.stringify(inst.model.modelRequests()[0]?.body)).toContain(`run ${launcher()} (the angelia command`);
    const out = commandOutput(items);
    expect(out).toContain('sent chart.png (3 bytes)\nsend-media exit 0');
    expect(out).toMatch(/queued [0-9a-f-]{36}\nturn exit 0/);
    // No Unix socket at all from inside: Codex's seccomp filter (proxy on) refuses socket(AF_UNIX).
    expect(out).toContain('DECOY EPERM connect');
    expect(out).toContain('API EPERM connect');
    expect(decoyConnections).toBe(0);

    // The file arrived in the asking chat: a notice with the private copy, and the copy itself.
    const notice = items.find((i) => i.type === 'notice' && i.text.startsWith('[from coder] the chart')) as { text: string } | undefined;
    expect(notice?.text).toMatch(new RegExp(`^\\[from coder\\] the chart\\n\\[file: ${inst.paths.stateDir}/media/[0-9a-f-]{36}/chart\\.png\\]$`));
    const copy = /\[file: (.+)\]$/.exec(notice!.text)![1]!;
    expect(await readFile(copy, 'utf8')).toBe('png');

    // The turn arrived in the other chat, labelled, and ran there.
    const other = orch.chat('other');
    await until(() => other.transcript.all().some((i) => i.type === 'user'));
    await other.idle();
    const users = other.transcript
      .all()
      .filter((i) => i.type === 'user')
      .map((i) => (i as { text: string }).text);
    expect(users).toEqual(['[from coder]\n\nhello']);

    // The other profile's agent could neither write into coder's mailbox nor read it.
    const theirs = commandOutput(other.transcript.all());
    expect(theirs).toMatch(/write exit [1-9]/);
    expect(theirs).toMatch(/ls exit [1-9]/);
    expect(theirs).toMatch(/cat exit [1-9]/);
    expect(theirs).not.toContain('"token"');
    const box = mailboxDirFor(inst.paths.stateDir, 'coder');
    expect(existsSync(join(box, '00000000-0000-4000-8000-000000000000.req.json'))).toBe(false);
    // Every request was taken and every answer collected: only the identity file (and the agent's nothing else) stays.
    expect((await readdir(box)).filter((n) => !n.startsWith('.'))).toEqual([IDENTITY_FILE]);
    expect(reports).toEqual([]);
  });
});
