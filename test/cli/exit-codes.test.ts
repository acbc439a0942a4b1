/**
 * One exit code for an unknown name across commands (cli/exit.ts): `run`, `export`, `compile` and
 * `verify` with a profile or chat that does not exist exit 2 (usage), as `export` always did — a user saw
 * `angelia run nosuch "hi"` exit 1 while `angelia export nosuch` exited 2. The API commands answer an
 * unknown chat the same way (exit 2), while a refusal stays 1 and "not running" stays 3.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInstance } from '../../src/main/core/instance/paths';
import type { CliIo } from '../../src/main/api/cli';
import { runAsk } from '../../src/main/cli/commands/ask';
import { runSend } from '../../src/main/cli/commands/send';
import { runSendMedia } from '../../src/main/cli/commands/send-media';
import { runTurn } from '../../src/main/cli/commands/turn';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { apiDirs, type ApiDirs } from '../api/helpers';
import { createFakeApiCore } from '../api/fakeApiCore';
import { angelia, initInstance, type CliInstance } from './cli';

let inst: CliInstance;
beforeAll(async () => {
  inst = await initInstance('cli-exit');
});
afterAll(async () => inst?.cleanup());

describe('an unknown profile or chat exits 2 in every command', () => {
  it('run, export, compile (plan and --write) and verify', async () => {
    const run = await angelia(inst.env, 'run', 'nosuch', 'hi');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('angelia run: no chat or profile named "nosuch" (chats: assistant)\n');
    expect(run.stdout).toBe('');

    const exported = await angelia(inst.env, 'export', 'nosuch');
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain('no chat named "nosuch"');

    for (const args of [
      ['compile', 'nosuch'],
      ['compile', 'nosuch', '--json'],
      ['compile', '--write', 'nosuch'],
    ]) {
      const compile = await angelia(inst.env, ...args);
      expect(compile.code, args.join(' ')).toBe(2);
      expect(compile.stderr).toContain('compile error: there is no profile "nosuch"');
      expect(compile.stderr).toContain('fix: use one of: assistant');
    }

    const verify = await angelia(inst.env, 'verify', 'nosuch');
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain('there is no profile "nosuch" in the accepted table');
  });

  it('a known profile is not taken for an unknown one: compile assistant exits 0', async () => {
    const ok = await angelia(inst.env, 'compile', 'assistant');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });
});

describe('the API commands: no such chat is 2, as in run and export; not running stays 3', () => {
  let dirs: ApiDirs;
  let api: RunningApi;
  beforeAll(async () => {
    dirs = await apiDirs();
    // Where the commands look for the owner token and the socket of this state folder.
    const where = resolveInstance({ HOME: dirs.home, ANGELIA_STATE_DIR: dirs.state });
    await mkdir(dirname(where.apiToken), { recursive: true, mode: 0o700 });
    api = await startApi({
      core: createFakeApiCore().core,
      socketPath: where.apiSock,
      tokenFile: where.apiToken,
      stateDir: dirs.state,
      home: dirs.home,
      codexHome: join(dirs.home, '.codex'),
      env: {},
    });
  });
  afterAll(async () => {
    await api?.close();
    await dirs?.cleanup();
  });

  function io(): CliIo & { out: string; err: string } {
    const rec = {
      env: { HOME: dirs.home, ANGELIA_STATE_DIR: dirs.state } as NodeJS.ProcessEnv,
      cwd: dirs.outside,
      out: '',
      err: '',
      stdout: (t: string) => void (rec.out += t),
      stderr: (t: string) => void (rec.err += t),
      stdin: async () => '',
    };
    return rec;
  }

  it('send, turn, ask and send-media to a chat that does not exist', async () => {
    for (const [name, run] of [
      ['send', runSend],
      ['turn', runTurn],
      ['ask', runAsk],
    ] as const) {
      const o = io();
      expect(await run(['nobody', 'hello'], o), name).toBe(2);
      expect(o.err).toBe(`angelia ${name}: no such chat (the chats: angelia profiles)\n`);
      expect(o.out).toBe('');
    }
    const m = io();
    expect(await runSendMedia(['nobody', '/etc/hostname'], m)).toBe(2);
    expect(m.err).toMatch(/^angelia send-media: no such chat/);
  });

  it('a chat that exists still gets through (exit 0); with no Angelia running it is 3', async () => {
    const o = io();
    expect(await runSend(['coder', 'hello'], o), o.err).toBe(0);
    expect(o.out).toBe('sent\n');
    const none = { ...io(), env: { HOME: dirs.home, ANGELIA_STATE_DIR: join(dirs.root, 'no-angelia-here') } };
    expect(await runSend(['nobody', 'hello'], none)).toBe(3);
  });
});
