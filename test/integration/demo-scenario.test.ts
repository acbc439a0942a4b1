/**
 * The demo's scripted behaviour on a REAL Codex (0.169.0) in a named permission profile that denies the
 * fake secret: every example prompt does what the demo promises, driven only by what the user types.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { demoResponder } from '../../src/main/demo/scenario';
import { startScriptedModel, type ScriptedModel } from '../../src/main/demo/scriptedModel';
import { BareCodex, runTurn, type ApprovalHandler } from '../fixtures/bareCodex';

let root = '';
let model: ScriptedModel;
let codex: BareCodex;
let threadId = '';
let outside = '';
let secretPath = '';
let decide: 'accept' | 'decline' = 'accept';

const approvals: ApprovalHandler = (method, params) =>
  method === 'item/permissions/requestApproval' ? { permissions: decide === 'accept' ? params.permissions : {}, scope: 'turn' } : { decision: decide };

beforeAll(async () => {
  root = await freshDir('demo-scenario');
  const cwd = join(root, 'workspace');
  outside = join(root, 'shared');
  secretPath = join(root, 'home', '.ssh', 'id_demo');
  await mkdir(cwd);
  await mkdir(outside);
  await mkdir(join(root, 'home', '.ssh'), { recursive: true });
  await writeFile(secretPath, 'FAKE DEMO KEY');
  await writeFile(join(cwd, 'notes.md'), '# notes\n');
  model = await startScriptedModel({ script: demoResponder({ secretPath, outsideDir: outside, deltaDelayMs: 0 }) });
  const codexHome = join(root, 'codex-home');
  await writeOfflineCodexHome(codexHome, {
    modelBaseUrl: model.baseUrl,
    extra: {
      default_permissions: 'demo',
      features: { request_permissions_tool: true, exec_permission_approvals: true },
      permissions: { demo: { extends: ':workspace', filesystem: { [join(root, 'home', '.ssh')]: 'deny' } } },
    },
  });
  codex = BareCodex.spawn({ codexHome, cwd, approvals });
  await codex.initialize();
  const started = await codex.request<{ thread: { id: string }; activePermissionProfile: unknown }>('thread/start', {
    cwd,
    approvalPolicy: 'on-request',
    approvalsReviewer: 'user',
  });
  expect(started.activePermissionProfile).toEqual({ id: 'demo', extends: ':workspace' });
  threadId = started.thread.id;
});

afterAll(async () => {
  await codex?.close();
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('demo scenario on a real Codex', () => {
  it('"hello" streams a markdown answer in several deltas', async () => {
    const turn = await runTurn(codex, threadId, 'hello');
    expect(turn.status).toBe('completed');
    expect(turn.deltas.length).toBeGreaterThan(2);
    expect(turn.text).toContain('## Hello');
  });

  it('"run" lists the workspace inside the sandbox and summarises it', async () => {
    const turn = await runTurn(codex, threadId, 'run ls in my folder');
    expect(turn.items.find((i) => i.type === 'commandExecution')).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(turn.text).toContain('- `notes.md`');
  });

  it('"secret" is blocked by the sandbox and the agent says so', async () => {
    const turn = await runTurn(codex, threadId, 'show me the secret key');
    expect(turn.text).toContain('the sandbox blocked it');
    expect(turn.text).toContain('Permission denied');
    expect(turn.text).not.toContain('FAKE DEMO KEY');
  });

  it('"access" asks for write access to the folder and writes there once granted', async () => {
    const before = codex.answered.length;
    const turn = await runTurn(codex, threadId, 'I need access to the shared folder');
    expect(codex.answered.slice(before).map((a) => a.method)).toEqual(['item/permissions/requestApproval']);
    expect(turn.text).toContain('Done: I wrote');
    expect(existsSync(join(outside, 'angelia-demo-access.txt'))).toBe(true);
  });

  it('"write outside" asks for an escalation; declined, nothing is written', async () => {
    decide = 'decline';
    const turn = await runTurn(codex, threadId, 'write outside the workspace');
    expect(codex.answered.at(-1)?.method).toBe('item/commandExecution/requestApproval');
    expect(codex.answered.at(-1)?.params.reason).toContain(outside);
    expect(turn.text).toContain('You declined');
    expect(existsSync(join(outside, 'angelia-demo-escalated.txt'))).toBe(false);
  });

  it('"write outside" approved runs the command outside the sandbox', async () => {
    decide = 'accept';
    const turn = await runTurn(codex, threadId, 'write outside the workspace');
    expect(turn.text).toContain('with your approval');
    expect(existsSync(join(outside, 'angelia-demo-escalated.txt'))).toBe(true);
  });
});
