/**
 * An approved escalation on a REAL Codex (0.169.0, Linux bubblewrap) with the floor Angelia compiles
 * for a fresh home where most floor paths do not exist (no ~/.claude, ~/.grok, ~/.pi, ~/.config, …),
 * the instance in its default layout, and the launch exactly as a chat plans it (launch/plan.ts
 * `planLaunch`: compiled guard, launch facts, flags, environment, thread parameters). A scripted model
 * runs the commands. Before the fix every approved escalation failed before running:
 * `bwrap: Can't bind mount /bindfile… on …/home/.claude: … No such file or directory`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLaunch } from '../../src/main/core/launch/plan';
import type { LaunchPlan } from '../../src/main/core/launch/plan';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel, type ScriptedModel } from '../../src/main/demo/scriptedModel';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import { BareCodex, runTurn, type ApprovalHandler } from '../fixtures/bareCodex';
import { writeCompiled } from '../fixtures/compiled';
import { removeTestDir } from '../core/instance/testDir';

const SECRET = 'ESCALATION-SECRET-91c4';
let root = '';
let home = '';
let outside = '';
let paths: InstancePaths;
let model: ScriptedModel;
let plan: LaunchPlan;
let codex: BareCodex;
let threadId = '';

const approvals: ApprovalHandler = (method, params) =>
  method === 'item/permissions/requestApproval' ? { permissions: params.permissions, scope: 'turn' } : { decision: 'accept' };

/** The command items of a turn that ran `cmd` (one exec step, then a message). */
async function runCommand(cmd: string, escalate: boolean): Promise<{ exitCode: unknown; status: unknown; output: string }> {
  model.enqueue(
    { exec: { cmd, login: false, ...(escalate ? { sandbox_permissions: 'require_escalated' as const, justification: 'write outside the workspace' } : {}) } },
    { message: 'done' },
  );
  const before = codex.answered.length;
  const turn = await runTurn(codex, threadId, 'run it');
  expect(turn.status).toBe('completed');
  const asked = codex.answered.slice(before).map((a) => a.method);
  expect(asked).toEqual(escalate ? ['item/commandExecution/requestApproval'] : []);
  const item = turn.items.find((i) => i.type === 'commandExecution');
  expect(item, 'a command item').toBeDefined();
  return { exitCode: item!.exitCode, status: item!.status, output: String(item!.aggregatedOutput ?? '') };
}

/** A script that cats each path and prints `OPEN <path>` when it could. */
const catEach = (files: string[]): string => files.map((f) => `cat '${f}' >/dev/null 2>&1 && echo 'OPEN ${f}'`).join('; ');

beforeAll(async () => {
  root = await freshDir('sbx-escalation');
  home = join(root, 'home');
  outside = join(root, 'outside');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    ANGELIA_STATE_DIR: join(home, '.angelia'),
    CODEX_HOME: join(root, 'codex-home'),
    RUST_LOG: 'warn',
  };
  delete env.ANGELIA_CONFIG;
  paths = resolveInstance(env);
  const cwd = join(paths.workspace, 'profiles', 'coder');
  for (const d of [join(home, '.ssh'), cwd, outside, join(paths.stateDir, 'approvals')]) await mkdir(d, { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), SECRET);
  for (const rel of ['sessions.json.bak', 'children.json', 'approvals/0b9c3e7a.json', 'something-new.json'])
    await writeFile(join(paths.stateDir, rel), `${SECRET} ${rel}\n`);
  model = await startScriptedModel();
  await writeOfflineCodexHome(paths.codexHome, { modelBaseUrl: model.baseUrl });
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "default"\n');
  const table = await loadTable(paths.tableFile, { home, env });
  await writeCompiled(paths, table);
  plan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths, env });
  codex = BareCodex.spawn({
    bin: plan.spawn.bin,
    args: plan.spawn.args.slice(0, -1),
    cwd: plan.spawn.cwd,
    env: plan.spawn.env,
    codexHome: paths.codexHome,
    approvals,
  });
  await codex.initialize();
  const started = await codex.request<{ thread: { id: string } }>('thread/start', plan.threadParams);
  threadId = started.thread.id;
});

afterAll(async () => {
  await codex?.close();
  await model?.close();
  if (root) await removeTestDir(root);
});

describe('an approved escalation with floor paths that do not exist (real codex, bubblewrap)', () => {
  it('the launch denies home paths that do not exist on this machine (where bwrap failed to bind them before)', () => {
    const fsFlag = plan.spawn.args.find((a) => a.startsWith('permissions.angelia.filesystem='))!;
    for (const rel of ['.netrc', '.aws', '.claude', '.grok', '.pi', '.config', '.claude.json']) {
      expect(fsFlag, rel).toContain(`"${join(home, rel)}" = "deny"`);
    }
    // The start made the floor's mount points where an empty one means none (launch/denyMountPoints.ts:
    // docs/architecture.md "Sandboxes of many profiles at once"); the others are left missing.
    expect(readFileSync(join(home, '.netrc'), 'utf8')).toBe('');
    expect(readdirSync(join(home, '.aws'))).toEqual([]);
    for (const rel of ['.claude', '.grok', '.pi', '.claude.json']) expect(existsSync(join(home, rel)), rel).toBe(false);
  });

  it('a plain command runs in the sandbox (exit 0)', async () => {
    const r = await runCommand('echo normal > made-normal.txt && echo NORMAL-OK', false);
    expect(r).toMatchObject({ exitCode: 0, status: 'completed' });
    expect(r.output).toContain('NORMAL-OK');
    expect(await readFile(join(paths.workspace, 'profiles', 'coder', 'made-normal.txt'), 'utf8')).toBe('normal\n');
  });

  it('the approved escalation runs (exit 0) and writes outside the workspace', async () => {
    const target = join(outside, 'escalated.txt');
    const r = await runCommand(`echo escalated > '${target}' && echo ESCALATED-OK`, true);
    expect(r.output).not.toContain('bwrap');
    expect(r).toMatchObject({ exitCode: 0, status: 'completed' });
    expect(r.output).toContain('ESCALATED-OK');
    expect(await readFile(target, 'utf8')).toBe('escalated\n');
  });

  it('the escalated command still cannot read the floor: credentials and Angelia private state', async () => {
    const files = [
      join(home, '.ssh', 'id_rsa'),
      ...['sessions.json.bak', 'children.json', 'approvals/0b9c3e7a.json', 'something-new.json'].map((r) => join(paths.stateDir, r)),
    ];
    const r = await runCommand(`echo alive; ${catEach(files)}; exit 0`, true);
    expect(r).toMatchObject({ exitCode: 0 });
    expect(r.output).toBe('alive\n');
  });

  it('a missing denied folder cannot be created by the escalated command', async () => {
    const r = await runCommand(`mkdir -p '${join(home, '.grok')}' && echo MADE; echo x > '${join(home, '.netrc')}' && echo WROTE; exit 0`, true);
    expect(r).toMatchObject({ exitCode: 0 });
    expect(r.output).not.toMatch(/MADE|WROTE/);
    expect(existsSync(join(home, '.grok'))).toBe(false);
    // The empty mount point the start made stays empty.
    expect(readFileSync(join(home, '.netrc'), 'utf8')).toBe('');
  });

  it('a denied path created later outside the sandbox stays unreadable, escalated or not', async () => {
    await mkdir(join(home, '.grok'), { recursive: true });
    await writeFile(join(home, '.grok', 'auth.json'), SECRET);
    await mkdir(join(home, '.config', 'gh'), { recursive: true });
    await writeFile(join(home, '.config', 'gh', 'hosts.yml'), SECRET);
    const files = [join(home, '.grok', 'auth.json'), join(home, '.config', 'gh', 'hosts.yml')];
    const escalated = await runCommand(`echo alive; ${catEach(files)}; exit 0`, true);
    expect(escalated).toMatchObject({ exitCode: 0 });
    expect(escalated.output).toBe('alive\n');
    const plain = await runCommand(`echo alive; ${catEach(files)}; exit 0`, false);
    expect(plain).toMatchObject({ exitCode: 0 });
    expect(plain.output).toBe('alive\n');
  });
});
