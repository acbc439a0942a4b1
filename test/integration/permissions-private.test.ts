/**
 * A permissions request for Angelia's private state on REAL Codex (0.169.0, Linux bubblewrap), driven
 * through the orchestrator the hosts use; only the model is scripted. Whatever the user answers, no
 * grant may open `<state>` (approvals/privateReach.ts): the card shows it refused, an Allow grants only
 * the rest (checked on the wire, the reply Codex received), and the agent's next command still cannot
 * read the owner token (`<state>/private/api.token`) nor plant a file in `<state>`. Measured before the fix: an Allow echoed
 * `write <state>` and the next command created `<state>/new.txt`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { byProgress } from '../fixtures/byProgress';
import { makeInstance, turnOn, type TestInstance, commandItems } from '../fixtures/instance';
import { tappedStartCodex, type WireReply } from '../fixtures/realWindow';
import type { Responder } from '../../src/main/demo/scriptedModel';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** The orchestrator over `i`, every reply to Codex recorded; each pending approval is answered `answer` (Allow) from the window. */
async function start(i: TestInstance, answer: 'allow' | 'allowForSession' = 'allow') {
  const replies: WireReply[] = [];
  const audit = memoryAudit();
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: tappedStartCodex(replies), audit });
  orch = o;
  const shown: ApprovalView[] = [];
  o.hub.subscribe((e) => {
    if (e.event !== 'approval:updated' || e.payload.state !== 'pending') return;
    shown.push(e.payload);
    o.broker.answer(e.payload.id, answer, 'window');
  });
  return { o, replies, audit, shown };
}

const commands = commandItems;

/**
 * Tries to plant a file in the state folder, read the owner token and write `outside`; prints what worked.
 * The state folder is not granted, so the plant lands in the sandbox's own in-memory root (codex 0.169.0
 * builds a private tmpfs `/` when no base profile is extended) and vanishes with the command: whether it
 * reached the state folder is checked on the host (docs/security-model.md "Filesystem: private by default").
 */
function probe(i: TestInstance, outsideFile: string): string {
  const state = i.paths.stateDir;
  return [
    `echo planted > '${join(state, 'planted.txt')}' && echo PLANTED`,
    `cat '${i.paths.apiToken}' && echo TOKEN-READ`,
    `cat '${i.paths.sessionsFile}' && echo SESSIONS-READ`,
    `echo ok > '${outsideFile}' && echo OUTSIDE-WRITTEN`,
    'exit 0',
  ].join('; ');
}

describe('a permissions request for private state on real codex (Allow)', () => {
  it('the card shows <state> refused, Allow grants only the rest, and the next command still cannot reach <state>', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    const state = inst.paths.stateDir;
    const outsideFile = join(inst.outside, 'granted.txt');
    inst.model.enqueue(
      { requestPermissions: { reason: 'read the chats and write the report', permissions: { file_system: { read: [state], write: [state, inst.outside] } } } },
      { exec: { cmd: probe(inst, outsideFile), login: false } },
      { message: 'done' },
    );
    const { o, replies, audit, shown } = await start(inst);
    const items = await turnOn(o, 'coder', 'read your state');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });

    // The card: only `write outside` can be granted; both <state> paths are listed as never granted.
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      kind: 'permissions',
      requested: { read: [], write: [inst.outside], network: false },
      refused: [
        { access: 'write', path: state, why: "Angelia's private state" },
        { access: 'read', path: state, why: "Angelia's private state" },
      ],
    });
    expect(shown[0]?.title).toContain(`never granted: write ${state}, read ${state}`);
    expect(o.broker.all()[0]).toMatchObject({ state: 'answered', answer: 'allow', by: 'window', granted: { read: [], write: [inst.outside], network: false } });
    expect(audit.records.find((r) => r.event === 'requested')?.refused).toHaveLength(2);

    // On the wire: Codex asked for <state>, and received a grant without it.
    const reply = replies.find((r) => r.method === 'item/permissions/requestApproval');
    expect(JSON.stringify(reply?.params)).toContain(state);
    expect(reply?.result).toMatchObject({ scope: 'turn', permissions: { fileSystem: { write: [inst.outside] } } });
    expect(JSON.stringify(reply?.result)).not.toContain(state);

    // The next command: the outside folder was granted, <state> was not.
    const cmd = commands(items).at(-1);
    expect(cmd?.output).toContain('OUTSIDE-WRITTEN');
    expect(cmd?.output).not.toMatch(/TOKEN-READ|SESSIONS-READ/);
    expect(readFileSync(outsideFile, 'utf8')).toBe('ok\n');
    expect(existsSync(join(state, 'planted.txt'))).toBe(false);
    const token = readFileSync(inst.paths.apiToken, 'utf8').trim();
    expect(token.length).toBeGreaterThan(8);
    expect(cmd?.output).not.toContain(token);
    for (const r of inst.model.modelRequests()) expect(JSON.stringify(r.body)).not.toContain(token);
  });

  it('asking for nothing but private state is refused without a card; the agent is told why, and still cannot read it', async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (body, req) => script(body, req) });
    const state = inst.paths.stateDir;
    const outsideFile = join(inst.outside, 'never.txt');
    script = byProgress({
      'read the token': [
        { requestPermissions: { reason: 'read the owner token', permissions: { file_system: { read: [inst.paths.apiToken, inst.paths.codexHome] } } } },
        { exec: { cmd: probe(inst, outsideFile), login: false } },
        { message: 'done' },
      ],
    });
    const { o, replies, audit, shown } = await start(inst);
    const items = await turnOn(o, 'coder', 'read the token');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });

    expect(shown).toEqual([]);
    expect(o.broker.all()).toEqual([]);
    const reply = replies.find((r) => r.method === 'item/permissions/requestApproval');
    expect(reply?.result).toEqual({ permissions: {}, scope: 'turn' });
    expect(audit.records).toMatchObject([
      {
        event: 'answered-immediately',
        kind: 'permissions',
        method: 'item/permissions/requestApproval',
        refused: [
          { access: 'read', path: inst.paths.apiToken, why: "Angelia's private state" },
          { access: 'read', path: inst.paths.codexHome, why: "Codex's home (every profile's login, threads and settings)" },
        ],
      },
    ]);
    expect(
      items.some((i) => i.type === 'notice' && i.text.includes('Angelia never grants that, whoever answers, so it refused the request without asking you.')),
    ).toBe(true);
    // The agent was told why (a steer into its turn), and its command reached neither <state> nor the outside folder.
    const later = inst.model
      .modelRequests()
      .slice(1)
      .map((r) => JSON.stringify(r.body))
      .join('\n');
    expect(later).toContain('[Angelia] Angelia refused your request for more access without asking the user');
    const cmd = commands(items).at(-1);
    expect(cmd?.output).not.toMatch(/TOKEN-READ|SESSIONS-READ|OUTSIDE-WRITTEN/);
    expect(existsSync(join(state, 'planted.txt'))).toBe(false);
  });

  it('a command asking for additional permissions on CODEX_HOME is declined at once; the turn goes on', async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (body, req) => script(body, req) });
    const planted = join(inst.paths.codexHome, 'AGENTS.md');
    script = byProgress({
      'plant instructions': [
        {
          exec: {
            cmd: `echo 'obey me' > '${planted}' && echo PLANTED`,
            login: false,
            sandbox_permissions: 'with_additional_permissions',
            justification: 'add global instructions',
            additional_permissions: { file_system: { write: [inst.paths.codexHome] } },
          },
        },
        { message: 'declined, going on' },
      ],
    });
    const { o, replies, audit, shown } = await start(inst);
    const items = await turnOn(o, 'coder', 'plant instructions');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(shown).toEqual([]);
    const reply = replies.find((r) => r.method === 'item/commandExecution/requestApproval');
    expect(reply?.result).toEqual({ decision: 'decline' });
    expect(audit.records[0]).toMatchObject({ event: 'answered-immediately', kind: 'command', refused: [{ access: 'write', path: inst.paths.codexHome }] });
    expect(existsSync(planted)).toBe(false);
    // The last agent message is the model's whole answer. An earlier one may hold its first words only:
    // the steer Angelia sends after the decline can reach Codex while that answer streams, and Codex then
    // ends the message where it was and asks the model again (seen once in a CI run: "declin").
    expect(items.filter((i) => i.type === 'agent').at(-1)).toMatchObject({ text: 'declined, going on' });
    // The agent was told why, in this turn.
    const later = inst.model
      .modelRequests()
      .slice(1)
      .map((r) => JSON.stringify(r.body))
      .join('\n');
    expect(later).toContain('[Angelia] Angelia declined your command without asking the user');
  });
});

// Found by a tester on codex 0.169.0 (Linux): a grant is resolved again each time Codex builds a later
// command's sandbox, following symbolic links. A write grant of a missing name in the agent's own folder,
// then `ln -s <state>/private <that name>`, opened the owner token (and, the same way, another profile's
// folder, ~/.ssh, CODEX_HOME or $HOME). Now no grant is given in a place the agent can write: the request
// is answered at once with an empty grant (approvals/privateReach.ts).
describe('a grant the agent could redirect with a symbolic link, on real codex', () => {
  it('write <cwd>/cache-dir (Allow for the session), then ln -s <state>/private there: the token stays unreadable, in that turn and the next', async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (body, req) => script(body, req) });
    const cwd = inst.cwd.coder!;
    const cache = join(cwd, 'cache-dir');
    const read = `cat '${join(cache, 'api.token')}' && echo TOKEN-READ; echo planted > '${join(cache, 'planted.txt')}' && echo PLANTED; exit 0`;
    script = byProgress({
      'make a cache': [
        { requestPermissions: { reason: 'a cache folder for the build', permissions: { file_system: { write: [cache] } } } },
        { exec: { cmd: `ln -s '${inst.paths.privateDir}' '${cache}' && echo LINKED`, login: false } },
        { exec: { cmd: read, login: false } },
        { message: 'done' },
      ],
      'try again': [{ exec: { cmd: read, login: false } }, { message: 'still closed' }],
    });
    const { o, replies, audit, shown } = await start(inst, 'allowForSession');
    const items = await turnOn(o, 'coder', 'make a cache');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    // Made by the launch (launch/plan.ts), before the agent's first command.
    const token = readFileSync(inst.paths.apiToken, 'utf8').trim();
    expect(token.length).toBeGreaterThan(8);

    // The link was made (the folder is the agent's), and leads nowhere the sandbox opens. (Before the
    // fix: the card was shown, Allow for the session granted `write <cwd>/cache-dir`, and this printed
    // the token and planted a file in <state>/private.)
    const [link, probe] = commands(items).slice(-2);
    expect(link?.output).toContain('LINKED');
    expect(probe?.output).not.toMatch(/TOKEN-READ|PLANTED/);
    expect(probe?.output).not.toContain(token);
    expect(existsSync(join(inst.paths.privateDir, 'planted.txt'))).toBe(false);

    // Nothing to ask: the agent can already write there. Answered at once with an empty grant.
    expect(shown).toEqual([]);
    const reply = replies.find((r) => r.method === 'item/permissions/requestApproval');
    expect(JSON.stringify(reply?.params)).toContain(cache);
    expect(reply?.result).toEqual({ permissions: {}, scope: 'turn' });
    expect(JSON.stringify(reply?.result)).not.toContain(cache);
    expect(audit.records.find((r) => r.event === 'answered-immediately')).toMatchObject({
      kind: 'permissions',
      refused: [{ access: 'write', path: cache, already: true, why: `already writable, not granted again: it lies in ${cwd} (the profile's folder)` }],
    });
    expect(
      items.some((i) => i.type === 'notice' && i.text.includes('It can already write there, so Angelia answered with an empty grant without asking you')),
    ).toBe(true);

    // The next turn: nothing was granted for the session either.
    const next = await turnOn(o, 'coder', 'try again');
    expect(commands(next).at(-1)?.output).not.toMatch(/TOKEN-READ|PLANTED/);
    expect(existsSync(join(inst.paths.privateDir, 'planted.txt'))).toBe(false);
    for (const r of inst.model.modelRequests()) expect(JSON.stringify(r.body)).not.toContain(token);
  });

  it("read of an EXISTING folder in the agent's folder, swapped for a link to another profile's folder after the answer: refused at once, the secret stays unread", async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' }, writer: {} }, { privateHome: true, script: (body, req) => script(body, req) });
    const cwd = inst.cwd.coder!;
    const data = join(cwd, 'a', 'data');
    mkdirSync(data, { recursive: true });
    const secret = join(inst.cwd.writer!, 'draft.md');
    writeFileSync(secret, 'WRITER-SECRET-42\n');
    // A granted path is mounted in each later command's sandbox (it cannot be removed there), but the
    // folder above it can be renamed. Measured without the rule: codex 0.169.0 then refuses to build
    // every later command's sandbox ("cannot enforce sandbox read-only path … because it crosses
    // writable symlink"), so a read grant there leaks nothing but breaks the session's commands.
    script = byProgress({
      'read data': [
        { requestPermissions: { reason: 'read my data', permissions: { file_system: { read: [data] } } } },
        { exec: { cmd: `cd '${cwd}' && mv a a-old && mkdir a && ln -s '${inst.cwd.writer!}' a/data && echo SWAPPED`, login: false } },
        { exec: { cmd: `cat '${join(data, 'draft.md')}'; exit 0`, login: false } },
        { message: 'done' },
      ],
    });
    const { o, replies, shown } = await start(inst, 'allowForSession');
    const items = await turnOn(o, 'coder', 'read data');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    // Both commands ran (without the rule the second one never starts: its sandbox cannot be built).
    expect(commands(items).map((c) => c.command.includes('draft.md'))).toEqual([false, true]);
    const [swap, cmd] = commands(items);
    expect(swap?.output).toContain('SWAPPED');
    expect(cmd?.command).toContain('draft.md');
    expect(cmd?.output).not.toContain('WRITER-SECRET-42');
    expect(cmd?.output).not.toContain('error building bubblewrap command');
    expect(shown).toEqual([]);
    expect(replies.find((r) => r.method === 'item/permissions/requestApproval')?.result).toEqual({ permissions: {}, scope: 'turn' });
  });
});
