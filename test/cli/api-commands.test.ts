/**
 * The API commands (send, turn, ask) against a running API (the fake core on a real socket):
 * - after `--` every word is text, options and `-` / `@file` included, also through the `angelia` entry
 *   (`angelia send coder -- --help` sends "--help"; `--help` before `--` still prints the help);
 * - inside a read-only copy answering a question (`ANGELIA_ASK=1`) a command says that it cannot reach
 *   Angelia (exit 1), not that Angelia is not running, while Angelia runs;
 * - inside an agent, "no such chat" points at what an agent can do (its own chat, how chats are named,
 *   `angelia guide profiles`), never at `angelia profiles` (owner only); the owner still gets that.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { READ_ONLY_COPY } from '../../src/main/api/client';
import type { CliIo } from '../../src/main/api/cli';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { chatToken } from '../../src/main/core/api/tokens';
import { resolveInstance } from '../../src/main/core/instance/paths';
import { runAsk } from '../../src/main/cli/commands/ask';
import { runSend } from '../../src/main/cli/commands/send';
import { runSendMedia } from '../../src/main/cli/commands/send-media';
import { runTurn } from '../../src/main/cli/commands/turn';
import { apiDirs, type ApiDirs } from '../api/helpers';
import { createFakeApiCore, type FakeApiCore } from '../api/fakeApiCore';
import { angelia } from './cli';

let dirs: ApiDirs;
let api: RunningApi;
let fake: FakeApiCore;
let owner = '';
let ownerEnv: Record<string, string>;

beforeAll(async () => {
  dirs = await apiDirs();
  ownerEnv = { HOME: dirs.home, ANGELIA_STATE_DIR: dirs.state };
  const where = resolveInstance(ownerEnv);
  await mkdir(dirname(where.apiToken), { recursive: true, mode: 0o700 });
  fake = createFakeApiCore();
  api = await startApi({
    core: fake.core,
    socketPath: where.apiSock,
    tokenFile: where.apiToken,
    stateDir: dirs.state,
    home: dirs.home,
    codexHome: join(dirs.home, '.codex'),
    env: {},
  });
  owner = (await import('node:fs/promises').then((fs) => fs.readFile(where.apiToken, 'utf8'))).trim();
});
afterAll(async () => {
  await api?.close();
  await dirs?.cleanup();
});
beforeEach(() => {
  fake.posts.length = 0;
  fake.turns.length = 0;
  fake.asks.length = 0;
});

function io(env: Record<string, string> = ownerEnv, stdin = ''): CliIo & { out: string; err: string } {
  const rec = {
    env: env as NodeJS.ProcessEnv,
    cwd: dirs.outside,
    out: '',
    err: '',
    stdout: (t: string) => void (rec.out += t),
    stderr: (t: string) => void (rec.err += t),
    stdin: async () => stdin,
  };
  return rec;
}

/** The environment of chat `chat`'s agent (its token from the environment, as on macOS). */
function agentEnv(chat: string): Record<string, string> {
  return { ...ownerEnv, ANGELIA_API_TOKEN: chatToken(owner, chat), ANGELIA_SESSION_KEY: chat, ANGELIA_API_SOCK: resolveInstance(ownerEnv).apiSock };
}

describe('after --, every word is text', () => {
  it('send, turn and ask take "--help", "-", "@file" and "--json" after -- as the text itself', async () => {
    await writeFile(join(dirs.outside, 'notes.txt'), 'from the file\n');
    for (const [words, text] of [
      [['--', '--help'], '--help'],
      [['--', '-'], '-'],
      [['--', '@notes.txt'], '@notes.txt'],
      [['--', '--json', 'x'], '--json x'],
      [['--', '-h'], '-h'],
    ] as const) {
      const o = io();
      expect(await runSend(['coder', ...words], o), o.err).toBe(0);
      expect(fake.posts.at(-1)?.post.text, words.join(' ')).toBe(text);
    }
    let o = io();
    expect(await runTurn(['coder', '--', '--file', 'x'], o), o.err).toBe(0);
    expect(fake.turns.at(-1)?.text).toBe('--file x');
    o = io();
    expect(await runAsk(['--json', 'coder', '--', '--json'], o), o.err).toBe(0);
    expect(fake.asks.at(-1)?.text).toBe('--json');
    expect(JSON.parse(o.out)).toEqual({ answer: 'Node 20.19 (see .nvmrc).' });
    // Before --, `-` and `@file` keep their meaning.
    o = io(ownerEnv, 'from stdin\n');
    expect(await runSend(['coder', '-'], o), o.err).toBe(0);
    expect(fake.posts.at(-1)?.post.text).toBe('from stdin');
    o = io();
    expect(await runSend(['coder', '@notes.txt'], o), o.err).toBe(0);
    expect(fake.posts.at(-1)?.post.text).toBe('from the file');
  });

  it('through the angelia entry: send coder -- --help sends the text; --help before -- prints the help', async () => {
    const sent = await angelia(ownerEnv, 'send', 'coder', '--', '--help');
    expect(sent.stderr).toBe('');
    expect(sent).toMatchObject({ code: 0, stdout: 'sent\n' });
    expect(fake.posts.at(-1)?.post.text).toBe('--help');
    const help = await angelia(ownerEnv, 'send', '--help', '--', 'x');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^angelia send: post a line into a chat/);
    expect(help.stdout).toContain('after it every word is text');
    expect(fake.posts).toHaveLength(1);
  });
});

describe('inside a read-only copy answering a question (ANGELIA_ASK=1)', () => {
  it('every API command says it cannot reach Angelia (exit 1), while Angelia runs, and sends nothing', async () => {
    const env = { ...ownerEnv, ANGELIA_ASK: '1' };
    for (const [name, run, args] of [
      ['send', runSend, ['coder', 'hi']],
      ['turn', runTurn, ['coder', 'hi']],
      ['ask', runAsk, ['coder', 'hi']],
      ['send-media', runSendMedia, ['coder', '/etc/hostname']],
    ] as const) {
      const o = io(env);
      expect(await run([...args], o), name).toBe(1);
      expect(o.err).toBe(`angelia ${name}: ${READ_ONLY_COPY}\n`);
      expect(o.err).not.toMatch(/start Angelia|not running|owner token/);
    }
    expect(READ_ONLY_COPY).toMatch(/^this is a read-only copy answering a question: it cannot reach Angelia/);
    expect(fake.posts).toEqual([]);
    expect(fake.turns).toEqual([]);
    // The same environment without the mark reaches Angelia as the owner.
    expect(await runSend(['coder', 'hi'], io(ownerEnv))).toBe(0);
  });
});

describe('no such chat', () => {
  it('inside an agent: its own chat, how chats are named and angelia guide profiles, not angelia profiles', async () => {
    for (const [name, run] of [
      ['send', runSend],
      ['turn', runTurn],
      ['ask', runAsk],
    ] as const) {
      const o = io(agentEnv('research'));
      expect(await run(['nobody', 'hello'], o), name).toBe(2);
      expect(o.err).toBe(
        `angelia ${name}: no such chat (your own chat is "research"; a profile's first chat is named after the profile, ` +
          "and the profiles are in Angelia's table (your instructions name its file); see angelia guide profiles)\n",
      );
      expect(o.err).not.toMatch(/angelia profiles/);
    }
  });

  it('for the owner: angelia profiles lists the chats', async () => {
    const o = io();
    expect(await runSend(['nobody', 'hello'], o)).toBe(2);
    expect(o.err).toBe('angelia send: no such chat (the chats: angelia profiles)\n');
  });
});
