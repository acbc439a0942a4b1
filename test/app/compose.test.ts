/**
 * The composition root (src/main/app/compose.ts) and the orchestrator's named operations the hosts use
 * instead of a chat's transcript, the broker or the event hub. A real instance under
 * `<repo>/.angelia-test/`, a Codex spawn that must not happen (nothing here starts an agent).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { AppFailure } from '../../src/shared/result';
import { callApi, locateApi } from '../../src/main/api/client';
import { composeCore, type ComposedCore } from '../../src/main/app/compose';
import { resolveInstance } from '../../src/main/core/instance/paths';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';

let root: string;
let env: NodeJS.ProcessEnv;
let started = 0;
const composed: ComposedCore[] = [];

async function compose(over: { watchTable?: boolean } = {}): Promise<ComposedCore> {
  const core = await composeCore({
    env,
    startCodex: async () => {
      started++;
      throw new Error('must not start');
    },
    ...over,
  });
  composed.push(core);
  return core;
}

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (e) {
    return e instanceof AppFailure ? e.app.code : 'not an AppFailure';
  }
}

beforeEach(async () => {
  started = 0;
  root = await makeTestDir('compose');
  env = { HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex-home'), PATH: process.env.PATH ?? '' };
  const paths = resolveInstance(env);
  await mkdir(join(paths.workspace, 'profiles', 'coder'), { recursive: true });
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\n');
});

afterEach(async () => {
  for (const c of composed.splice(0)) await c.close();
  await removeTestDir(root);
});

describe('composeCore', () => {
  it('builds the core on the instance the environment names, without starting an agent', async () => {
    const core = await compose({ watchTable: false });
    expect(core.paths).toEqual(resolveInstance(env));
    expect(core.orchestrator.chatViews().map((c) => c.id)).toEqual(['coder']);
    expect(await core.orchestrator.api().handlers['app:info']({})).toMatchObject({ stateDir: resolveInstance(env).stateDir });
    expect(started).toBe(0);
  });

  it('refuses a table that does not load, with nothing started', async () => {
    await writeFile(resolveInstance(env).tableFile, '[profiles.coder]\ncwd = 3\n');
    await expect(compose()).rejects.toBeInstanceOf(AppFailure);
    expect(existsSync(resolveInstance(env).apiSock)).toBe(false);
  });

  it('startApi serves the loopback API with the owner token; its close removes the socket', async () => {
    const core = await compose();
    const api = await core.startApi();
    expect(api.socketPath).toBe(core.paths.apiSock);
    const status = await callApi<{ socket: string; chats: { chat: string; queued: number }[] }>(locateApi(env), 'GET', '/status');
    expect(status.socket).toBe(core.paths.apiSock);
    expect(status.chats).toEqual([expect.objectContaining({ chat: 'coder', queued: 0 })]);
    await api.close();
    expect(existsSync(core.paths.apiSock)).toBe(false);
  });
});

describe("the orchestrator's named operations", () => {
  it('postNotice shows a notice in the chat and tells every subscriber', async () => {
    const { orchestrator: orch } = await compose({ watchTable: false });
    const events: AppEvent[] = [];
    const unsubscribe = orch.subscribe((e) => events.push(e));
    orch.postNotice('coder', '[owner] the build is green');
    unsubscribe();
    orch.postNotice('coder', '[owner] not seen by the listener');
    expect(events.map((e) => e.event)).toEqual(['chat:item', 'chat:updated']);
    const items = await orch.api().handlers['chats:items']({ chatId: 'coder' });
    expect(items.filter((i) => i.type === 'notice').map((i) => (i.type === 'notice' ? i.text : ''))).toEqual([
      '[owner] the build is green',
      '[owner] not seen by the listener',
    ]);
  });

  it('an idle chat has room: queueDepth 0, assertCanQueue passes; an unknown chat is refused by every operation', async () => {
    const { orchestrator: orch } = await compose({ watchTable: false });
    expect(orch.queueDepth('coder')).toBe(0);
    expect(codeOf(() => orch.assertCanQueue('coder'))).toBeNull();
    expect(codeOf(() => orch.assertCanQueue('nobody'))).toBe('unknown-chat');
    expect(codeOf(() => orch.postNotice('nobody', 'x'))).toBe('unknown-chat');
    expect(codeOf(() => orch.queueTurn('nobody', 'x', { apiTurn: 't' }))).toBe('unknown-chat');
    expect(codeOf(() => orch.queueDepth('nobody'))).toBe('unknown-chat');
  });

  it('approvals: none pending; an answer to an unknown id settles nothing', async () => {
    const { orchestrator: orch } = await compose({ watchTable: false });
    expect(orch.pendingApprovals()).toEqual([]);
    expect(orch.answerApproval('0b7e2a4c-0000', 'allow', 'api')).toEqual({ outcome: 'unknown', answer: null, by: null });
  });

  it('before any turn: no turn end, no agent text', async () => {
    const { orchestrator: orch } = await compose({ watchTable: false });
    expect(orch.lastTurnEnd('coder')).toBeUndefined();
    expect(orch.lastAgentText('coder')).toBe('');
  });
});
