/**
 * A running Angelia (the app, `angelia serve`: one Orchestrator) follows an `angelia accept` run in
 * another terminal: the accepted copy `<state>/compiled/angelia.accepted.toml` is watched, and its change
 * has the effect of accepting in the window — the running chat of the changed profile shows "profile
 * changed: restart this chat to apply", new chats start with the new table. A user saw the host keep
 * the old accepted table until restart. Real codex 0.169.0 in its sandbox, scripted model; the accept is
 * the real command in its own process.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { angelia } from '../cli/cli';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** The next event of `o` that `accept` takes (subscribe before causing it); resolves with the event. */
function next(o: Orchestrator, accept: (e: AppEvent) => boolean): Promise<AppEvent> {
  return new Promise((resolve) => {
    const off = o.hub.subscribe((e) => {
      if (!accept(e)) return;
      off();
      resolve(e);
    });
  });
}

/** `env` without unset names, as a child's environment. */
function childEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined));
}

describe('angelia accept in another terminal', () => {
  it('switches the running orchestrator to the new accepted table, as accepting in the window does', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths } = inst;
    orch = await Orchestrator.create({ paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
    await orch.watchingAccepted();

    // A chat runs (its Codex stays up after the turn) under the accepted table.
    inst.model.enqueue({ message: 'hi' });
    const chat = orch.chat('coder');
    chat.send('hello');
    await chat.idle();
    expect(chat.view().mode).toMatchObject({ source: 'attested', permissionMode: 'default', tableChanged: null });

    // The table is edited on disk: seen, but not in force until accepted.
    const original = await readFile(paths.tableFile, 'utf8');
    const edited = original.replace('permission_mode = "default"', 'permission_mode = "acceptEdits"');
    expect(edited).not.toBe(original);
    const seen = next(orch, (e) => e.event === 'table:changed' && e.payload.differs);
    await writeFile(paths.tableFile, edited);
    await seen;
    expect(orch.profileViews()[0]?.permissionMode).toBe('default');

    // `angelia accept` in its own process.
    const changed = next(orch, (e) => e.event === 'profiles:changed');
    const banner = next(orch, (e) => e.event === 'chat:updated' && e.payload.id === 'coder' && e.payload.mode?.tableChanged != null);
    const cleared = next(orch, (e) => e.event === 'table:changed' && !e.payload.differs);
    const accepted = await angelia(childEnv(inst.env), 'accept');
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(edited);

    expect((await changed).payload).toEqual({ names: ['coder'] });
    const updated = await banner;
    expect(updated.event === 'chat:updated' && updated.payload.mode).toMatchObject({
      source: 'attested',
      permissionMode: 'default',
      tableChanged: 'profile changed: restart this chat to apply (mode default → acceptEdits)',
    });
    expect((await cleared).payload).toEqual({ differs: false, changes: 0 });
    // The running chat keeps the process it was attested with; the table in force is the new one.
    expect(chat.view().mode).toMatchObject({
      source: 'attested',
      permissionMode: 'default',
      tableChanged: expect.stringMatching(/^profile changed: restart this chat to apply/) as unknown,
    });
    expect(orch.profileViews()[0]?.permissionMode).toBe('acceptEdits');

    // A new chat starts with the new table.
    const created = await orch.api().handlers['chats:create']({ profile: 'coder' });
    expect(created.mode).toMatchObject({ source: 'next-start', permissionMode: 'acceptEdits' });
    inst.model.enqueue({ message: 'hi again' });
    const second = orch.chat(created.id);
    second.send('hello');
    await second.idle();
    expect(second.view().mode).toMatchObject({ source: 'attested', permissionMode: 'acceptEdits', tableChanged: null });
  });
});
