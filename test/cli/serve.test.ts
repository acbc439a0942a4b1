/**
 * `angelia serve` and `angelia demo` (from the source entry, in their own processes):
 * - with the UI not built (ANGELIA_RENDERER_DIR: a copy of the built renderer without its index.html)
 *   both refuse before starting anything: exit 3, "the UI is not built" with the fix "npm run build",
 *   no API socket, no mailbox, no `~/.angelia-demo-*` folder, and the process ends by itself;
 * - serving (real Codex in its sandbox, scripted model), SIGINT and SIGTERM shut serve down cleanly:
 *   exit 0, the API socket removed, every Codex child it started stopped and reaped (none left in
 *   `children.json`, none alive).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHILDREN_FILE_NAME } from '../../src/main/core/codex/children';
import { privateFile } from '../../src/main/core/instance/paths';
import { call } from '../api/helpers';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../core/instance/testDir';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { angelia, initInstance, type CliInstance } from './cli';
import { isRunning } from '../core/codex/processes';

const BUILT_RENDERER = join(REPO_ROOT, 'out', 'renderer');

describe('the UI is not built: serve and demo refuse before starting anything', () => {
  let inst: CliInstance;
  let unbuilt: string;
  let home: string;
  beforeAll(async () => {
    inst = await initInstance('serve-no-ui');
    unbuilt = join(inst.root, 'renderer-copy');
    // A copy of the host's static root with its index.html missing (an empty folder when it was never built).
    if (existsSync(BUILT_RENDERER)) await cp(BUILT_RENDERER, unbuilt, { recursive: true });
    await mkdir(unbuilt, { recursive: true });
    await rm(join(unbuilt, 'index.html'), { force: true });
    home = join(inst.root, 'demo-home');
    await mkdir(home, { recursive: true });
  });
  afterAll(async () => inst?.cleanup());

  it('serve: exit 3 with the fix, no socket, no mailbox, no agent', async () => {
    const run = await angelia({ ...inst.env, ANGELIA_RENDERER_DIR: unbuilt }, 'serve');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^angelia: the UI is not built/);
    expect(run.stderr).toContain('Fix: run "npm run build"');
    expect(existsSync(join(inst.state, 'api.sock'))).toBe(false);
    expect(existsSync(join(inst.state, 'mailbox'))).toBe(false);
    expect(existsSync(privateFile(inst.state, CHILDREN_FILE_NAME))).toBe(false);
  });

  it('demo: exit 3 with the fix, and no ~/.angelia-demo-* folder left', async () => {
    const run = await angelia({ HOME: home, ANGELIA_RENDERER_DIR: unbuilt }, 'demo');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/^angelia demo: the UI is not built/);
    expect(run.stderr).toContain('npm run build');
    expect((await readdir(home)).filter((n) => n.startsWith('.angelia-demo-'))).toEqual([]);
  });
});

describe('serving: SIGINT and SIGTERM shut serve down cleanly', () => {
  let inst: TestInstance;
  let scratch: string;
  const procs: ChildProcess[] = [];
  beforeAll(async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } }, { privateHome: true, script: () => ({ message: 'done here' }) });
    scratch = await makeTestDir('serve-ui');
    // serve needs the built UI: a minimal one of our own keeps this test apart from the build.
    await mkdir(join(scratch, 'renderer'), { recursive: true });
    await import('node:fs/promises').then((fs) => fs.writeFile(join(scratch, 'renderer', 'index.html'), '<!doctype html><title>test</title>'));
  });
  afterEach(() => {
    for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  });
  afterAll(async () => {
    await inst?.cleanup();
    await removeTestDir(scratch);
  });

  /** Starts `angelia serve`; resolves once it says it serves, with its output so far and its exit. */
  async function startServe(): Promise<{ proc: ChildProcess; output: () => string; exited: Promise<number | null> }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/index.ts'), 'serve'], {
      cwd: REPO_ROOT,
      env: { ...inst.env, ANGELIA_RENDERER_DIR: join(scratch, 'renderer') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(proc);
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (/API on /.test(out)) resolve();
      };
      proc.stdout!.on('data', check);
      void exited.then((code) => reject(new Error(`serve exited ${code} before serving:\n${out}`)));
    });
    return { proc, output: () => out, exited };
  }

  async function children(): Promise<{ pid: number }[]> {
    const text = await readFile(privateFile(inst.paths.stateDir, CHILDREN_FILE_NAME), 'utf8').catch(() => '{"children":[]}');
    return (JSON.parse(text) as { children: { pid: number }[] }).children;
  }

  it("SIGINT after a turn: exit 0, the socket removed, the chat's Codex stopped and reaped", async () => {
    const serve = await startServe();
    expect(existsSync(inst.paths.apiSock)).toBe(true);
    const owner = (await readFile(inst.paths.apiToken, 'utf8')).trim();
    const turn = await call(inst.paths.apiSock, 'POST', '/turn', { token: owner, body: { key: 'coder', text: 'hello' } });
    expect(turn.status, turn.text).toBe(200);
    // The turn ends with the scripted answer (the chat's Codex is then kept warm: a child to reap).
    for (;;) {
      const history = await call(inst.paths.apiSock, 'GET', '/history?key=coder', { token: owner });
      if ((history.body as { items?: { text: string }[] }).items?.some((i) => i.text === 'done here')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pids = (await children()).map((c) => c.pid);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.every(isRunning)).toBe(true);
    serve.proc.kill('SIGINT');
    expect(await serve.exited, serve.output()).toBe(0);
    expect(existsSync(inst.paths.apiSock)).toBe(false);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(await children()).toEqual([]);
  });

  it('SIGTERM: exit 0 and the socket removed', async () => {
    const serve = await startServe();
    expect(existsSync(inst.paths.apiSock)).toBe(true);
    serve.proc.kill('SIGTERM');
    expect(await serve.exited, serve.output()).toBe(0);
    expect(existsSync(inst.paths.apiSock)).toBe(false);
  });
});
