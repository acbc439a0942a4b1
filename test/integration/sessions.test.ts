/**
 * `angelia run --new` and `angelia sessions` on real codex (pinned npm package) with the scripted model,
 * through the BUILT CLI (`npx electron-vite build` first; `npm test` builds before vitest): three
 * sessions made with `run --new`, listed (`--json`: the exact stable shape), one renamed, one archived
 * (gone from the default list, the only one with `--archived`), a search finding one by a word of its
 * SECOND message and another by its name; an unknown session or chat exits 2. No `sessions` call asks
 * the model. The tests share one instance and run in order.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeInstance, type TestInstance } from '../fixtures/instance';

const CLI = join(__dirname, '..', '..', 'bin', 'angelia.js');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Listed = { id: string; name: string | null; preview: string | null; createdAt: string; updatedAt: string; archived: boolean };

let inst: TestInstance;
let modelCalls = 0;
/** Thread ids of the three sessions, oldest first. */
const made: string[] = [];

/** `angelia sessions …`, asserting the scripted model got no request while it ran. */
async function sessionsCli(args: string[]) {
  const r = await runCli(['sessions', ...args], inst.env);
  expect(inst.model.modelRequests()).toHaveLength(modelCalls);
  return r;
}

async function listed(args: string[] = []): Promise<Listed[]> {
  const r = await sessionsCli(['coder', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? 'null') as Listed[];
}

async function run(prompt: string, extra: string[] = []): Promise<string> {
  const r = await runCli(['run', 'coder', prompt, '--json', ...extra], inst.env);
  expect(r.code, r.stderr).toBe(0);
  const end = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { type: string; thread: string };
  expect(end.type).toBe('turn-end');
  return end.thread;
}

beforeAll(async () => {
  inst = await makeInstance({ coder: { permission_mode: 'default' } });
  inst.model.enqueue({ message: 'one' }, { message: 'two' }, { message: 'two more' }, { message: 'three' });
  made.push(await run('Alpha opens the first session', ['--new']));
  made.push(await run('Beta opens the second session', ['--new']));
  expect(await run('Beta goes on about a pelican')).toBe(made[1]);
  made.push(await run('Gamma opens the third session', ['--new']));
  modelCalls = inst.model.modelRequests().length;
  expect(modelCalls).toBe(4);
}, 180_000);

afterAll(async () => {
  await inst?.cleanup();
});

describe('angelia sessions (real codex)', () => {
  it('lists the three sessions newest first, in the stable JSON shape', async () => {
    expect(new Set(made).size).toBe(3);
    const rows = await listed();
    expect(rows.map((r) => r.id)).toEqual([...made].reverse());
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['id', 'name', 'preview', 'createdAt', 'updatedAt', 'archived']);
      expect(r.createdAt).toMatch(ISO);
      expect(r.updatedAt).toMatch(ISO);
      expect(r.updatedAt >= r.createdAt).toBe(true);
      expect(r).toMatchObject({ name: null, archived: false });
    }
    expect(rows.map((r) => r.preview)).toEqual(['Gamma opens the third session', 'Beta opens the second session', 'Alpha opens the first session']);
    const table = await sessionsCli(['coder']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/SESSION\s+CREATED\s+UPDATED\s+TURNS/);
    expect(table.stdout).toContain('Beta opens the second session');
  });

  it('renames a session by the end of its id', async () => {
    const alpha = made[0] as string;
    const r = await sessionsCli(['coder', '--rename', alpha.slice(-8), 'Release', 'notes']);
    expect(r.code, r.stderr).toBe(0);
    expect((await listed()).find((s) => s.id === alpha)?.name).toBe('Release notes');
  });

  it('archives a session: gone from the default list, the only one with --archived; unarchive brings it back', async () => {
    const gamma = made[2] as string;
    const r = await sessionsCli(['coder', '--archive', gamma]);
    expect(r.code, r.stderr).toBe(0);
    expect((await listed()).map((s) => s.id)).toEqual([made[1], made[0]]);
    const archived = await listed(['--archived']);
    expect(archived.map((s) => [s.id, s.archived])).toEqual([[gamma, true]]);
    const back = await sessionsCli(['coder', '--unarchive', gamma.slice(0, 13)]);
    expect(back.code, back.stderr).toBe(0);
    expect((await listed()).map((s) => s.id)).toEqual([...made].reverse());
    expect(await listed(['--archived'])).toEqual([]);
    const again = await sessionsCli(['coder', '--archive', gamma]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('searches the messages (a word of a second message) and the names, case-insensitive', async () => {
    expect((await listed(['--search', 'PELICAN'])).map((s) => s.id)).toEqual([made[1]]);
    expect((await listed(['--search', 'release NOTES'])).map((s) => s.id)).toEqual([made[0]]);
    expect(await listed(['--search', 'no-such-word-anywhere'])).toEqual([]);
    expect((await listed(['--archived', '--search', 'gamma'])).map((s) => s.id)).toEqual([made[2]]);
  });

  it('exits 2 for an unknown session or chat, and for a usage error', async () => {
    const unknown = await sessionsCli(['coder', '--archive', 'zzzzzzzz']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No session of this chat matches "zzzzzzzz"');
    expect((await sessionsCli(['coder', '--rename', 'zzzzzzzz', 'x'])).code).toBe(2);
    expect((await sessionsCli(['nochat', '--json'])).code).toBe(2);
    expect((await sessionsCli(['coder', '--archive'])).code).toBe(2);
  });
});
