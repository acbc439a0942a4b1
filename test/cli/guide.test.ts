/**
 * `angelia guide [topic]` (cli/commands/guide.ts), the manual agents read: its topics (api, commands,
 * profiles, layout; none: all four), built from the sources agents are told elsewhere — the `angelia`
 * paragraph of the developer instructions, the command table's summaries, options and exit codes, the
 * route table's `access`, the refusal texts, the table's permission modes; inside an agent it names the
 * agent's chat and launcher (never the token), inside a read-only copy it says there is no channel; an
 * unknown topic is exit 2 naming the topics. It reads no token and no socket.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCALATED, READ_ONLY_COPY } from '../../src/main/api/client';
import { routes } from '../../src/main/api/routes';
import { apiParagraph } from '../../src/main/core/compile/developerInstructions';
import { mailboxDirFor } from '../../src/main/core/launch/mailbox';
import { PERMISSION_MODES } from '../../src/main/core/table/schema';
import { commands } from '../../src/main/cli/commands';
import { AGENT_COMMANDS, GUIDE_TOPICS, runGuide } from '../../src/main/cli/commands/guide';
import { API_EXITS, exitCodesText } from '../../src/main/cli/exit';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';
import { angelia } from './cli';

/** Runs the guide with `env`; its exit code, stdout and stderr. */
async function guide(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runGuide(
    args,
    env,
    (t) => void (out += t),
    (t) => void (err += t),
  );
  return { code, out, err };
}

/** `text` with every run of white space made one space (the guide wraps its paragraphs). */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

let root: string;
beforeAll(async () => {
  root = await makeTestDir('guide');
});
afterAll(() => removeTestDir(root));

describe('angelia guide', () => {
  it('prints every topic without one, each alone with one, and nothing on stderr', async () => {
    const all = await guide([]);
    expect(all.code).toBe(0);
    expect(all.err).toBe('');
    expect(all.out).toMatch(/^Angelia's manual for agents\. Topics: api, commands, profiles, layout/);
    for (const topic of GUIDE_TOPICS) {
      const one = await guide([topic]);
      expect(one.code, topic).toBe(0);
      expect(one.out, topic).toContain(`(angelia guide ${topic})`);
      expect(all.out, topic).toContain(one.out.trimEnd());
    }
  });

  it('an unknown topic or two topics: exit 2, the topics named on stderr', async () => {
    const unknown = await guide(['routing']);
    expect(unknown).toEqual({
      code: 2,
      out: '',
      err: 'angelia guide: no topic "routing"; the topics: api, commands, profiles, layout\nusage: angelia guide [api | commands | profiles | layout]\n',
    });
    expect((await guide(['api', 'layout'])).code).toBe(2);
    expect((await guide(['--nope'])).code).toBe(2);
  });

  it("api: the developer instructions' paragraph, the channel, the route table's access, the refusals and the exit codes", async () => {
    const { out } = await guide(['api']);
    expect(flat(out)).toContain(flat(apiParagraph({ command: '<state>/bin/angelia', chat: '<your chat>' })));
    expect(out).toContain('mailbox');
    for (const r of routes.filter((x) => x.access !== 'public')) {
      const row = out.split('\n').find((l) => l.startsWith(`  ${r.method} ${r.path} `));
      expect(row, r.path).toBeDefined();
      const cells = row!
        .slice(`  ${r.method} ${r.path}`.length)
        .trim()
        .split(/\s{2,}/);
      expect(
        cells.map((c) => c.split(':')[0]),
        r.path,
      ).toEqual(['owner', 'chat', 'peer'].map((cls) => ((r.access as readonly string[]).includes(cls) ? 'yes' : 'no')));
    }
    expect(flat(out)).toContain(flat(ESCALATED('<your mailbox>', 'EACCES')));
    expect(flat(out)).toContain(flat(READ_ONLY_COPY));
    for (const word of ['accept_from', 'answer_from', 'isolated', '30 messages an hour', 'files go only into your own chat', 'at most 10 turns'])
      expect(flat(out)).toContain(word);
    expect(out).toContain(exitCodesText(API_EXITS).trimEnd());
  });

  it("commands: each agent command's summary and options from the command table; the rest named as the owner's", async () => {
    const { out } = await guide(['commands']);
    for (const name of AGENT_COMMANDS) {
      const c = commands[name]!;
      expect(flat(out), name).toContain(flat(`angelia ${c.summary.replace(/^[^:]*: /, '')}`));
      for (const line of c.options ?? []) expect(out, name).toContain(line);
    }
    const others = Object.keys(commands).filter((n) => !(AGENT_COMMANDS as readonly string[]).includes(n));
    expect(flat(out)).toContain(`The others are the owner's: ${others.join(', ')}.`);
  });

  it('profiles: the profile words, every permission mode among them', async () => {
    const { out } = await guide(['profiles']);
    for (const word of ['profile', 'chat', 'session', 'permission_mode', 'sandbox', 'add_dirs', 'isolated', 'accept_from', 'answer_from'])
      expect(out).toMatch(new RegExp(`^${word}$`, 'm'));
    for (const mode of PERMISSION_MODES) expect(out).toMatch(new RegExp(`^ {2}${mode}: `, 'm'));
    expect(flat(out)).toContain("A profile's first chat is named after the profile");
  });

  it('inside an agent: names its chat and launcher (from the identity file when the key is not set), never its token', async () => {
    const state = join(root, 'state');
    const mailbox = mailboxDirFor(state, 'coder');
    await mkdir(mailbox, { recursive: true });
    await writeFile(join(mailbox, 'identity.json'), JSON.stringify({ api: 1, chat: 'coder', token: 'SECRET-TOKEN-VALUE-123' }));
    const { out } = await guide(['api'], { ANGELIA_MAILBOX: mailbox });
    expect(flat(out)).toContain(flat(apiParagraph({ command: join(state, 'bin', 'angelia'), chat: 'coder' })));
    expect(out).not.toContain('SECRET-TOKEN-VALUE-123');
    const layout = await guide(['layout'], { ANGELIA_MAILBOX: mailbox, ANGELIA_SESSION_KEY: 'coder-2' });
    // Folded: where the 100-column wrap falls depends on the length of the test folder's path.
    expect(flat(layout.out)).toContain(flat(`Angelia's state folder here is ${state}.`));
    expect((await guide(['api'], { ANGELIA_SESSION_KEY: 'coder-2' })).out).toContain('Your chat is "coder-2"');
  });

  it('inside a read-only copy answering a question: says first that there is no channel', async () => {
    const { code, out } = await guide(['api'], { ANGELIA_ASK: '1' });
    expect(code).toBe(0);
    expect(flat(out.split('\n\n')[1]!)).toBe(flat(`Here: ${READ_ONLY_COPY}`));
  });

  it('through the angelia entry, with no instance, no token and no Angelia at all', async () => {
    const run = await angelia({ HOME: join(root, 'nobody-home'), ANGELIA_STATE_DIR: join(root, 'no-state') }, 'guide', 'layout');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^THE FOLDERS YOU SEE \(angelia guide layout\)\n/);
    const unknown = await angelia({}, 'guide', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('the topics: api, commands, profiles, layout');
  });
});
