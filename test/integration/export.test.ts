/**
 * `angelia export` on real codex (pinned npm package) with the scripted model: turns run through the
 * orchestrator, then the BUILT CLI (`npx electron-vite build` first; `npm test` builds before vitest)
 * reads them back through `thread/turns/list` in both formats. The scripted model must receive no
 * request during any export. The tests share one instance and run in order.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { copyFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { SessionStore, shortId } from '../../src/main/core/chats/sessions';
import { startCodexClient } from '../../src/main/core/codex/start';
import { PRIVATE_FILES } from '../../src/main/core/instance/paths';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';

const CLI = join(__dirname, '..', '..', 'bin', 'angelia.js');

function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Row = { ts: string | null; chat: string; profile: string; backend: string; session: string; role: string; text: string; tools?: string[] };
const rowsOf = (s: string): Row[] =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
const brief = (rows: Row[]) => rows.map((r) => [r.role, r.text, r.tools ?? null]);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let inst: TestInstance;
let thread1 = '';
let thread2 = '';
let modelCalls = 0;

const FIRST = [
  ['user', 'first question', null],
  ['assistant', 'first answer', null],
  ['user', 'run the command', null],
  ['assistant', 'ran it', ['shell']],
];
const SECOND = [
  ['user', 'second session question', null],
  ['assistant', 'second answer', null],
];

async function orchestrator(): Promise<Orchestrator> {
  return Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient });
}

/** The CLI, asserting that the scripted model got no request while it ran. */
async function exportCli(args: string[], cwd?: string) {
  const r = await runCli(['export', ...args], inst.env, cwd);
  expect(inst.model.modelRequests()).toHaveLength(modelCalls);
  return r;
}

beforeAll(async () => {
  inst = await makeInstance({ coder: { permission_mode: 'default' } });
  inst.model.enqueue({ message: 'first answer' }, { exec: { cmd: 'echo export-me', login: false } }, { message: 'ran it' });
  const o = await orchestrator();
  try {
    await turnOn(o, 'coder', 'first question');
    await turnOn(o, 'coder', 'run the command');
    thread1 = o.chat('coder').view().threadId ?? '';
  } finally {
    await o.shutdown();
  }
  modelCalls = inst.model.modelRequests().length;
});

afterAll(async () => {
  await inst?.cleanup();
});

describe('angelia export (one session)', () => {
  it('ran the two turns on one thread, three model requests', () => {
    expect(thread1).toMatch(/^[0-9a-f-]{36}$/);
    expect(modelCalls).toBe(3);
  });

  it('prints the active session as JSONL by default, exit 0', async () => {
    const r = await exportCli(['coder']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(brief(rows)).toEqual(FIRST);
    for (const row of rows) {
      expect(row).toMatchObject({ chat: 'coder', profile: 'coder', backend: 'codex', session: thread1 });
      expect(row.ts).toMatch(ISO);
    }
    expect(Object.keys(rows[0] ?? {})).toEqual(['ts', 'chat', 'profile', 'backend', 'session', 'role', 'text']);
  });

  it('--tools adds the command and its output as a tool row', async () => {
    const r = await exportCli(['coder', '--tools']);
    expect(r.code).toBe(0);
    expect(brief(rowsOf(r.stdout))).toEqual([...FIRST.slice(0, 3), ['tool', "$ /bin/bash -c 'echo export-me'\nexport-me\n[exit 0]", ['shell']], FIRST[3]]);
  });

  it('--format md gives a readable document', async () => {
    const r = await exportCli(['coder', '--format', 'md', '--tools']);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md.startsWith('# Chat `coder` (profile `coder`)\n\n## first question\n\n')).toBe(true);
    expect(md).toContain(`Session \`${thread1}\` · thread \`${thread1}\``);
    expect(md).toMatch(/\*\*You\*\* · [\d-]+ [\d:]+ UTC\n\nfirst question\n\n\*\*Agent\*\* · [\d-]+ [\d:]+ UTC\n\nfirst answer\n/);
    expect(md).toMatch(/\*\*Tool\*\* `shell` · [^\n]+\n\n```text\n\$ \/bin\/bash -c 'echo export-me'\nexport-me\n\[exit 0\]\n```\n/);
    expect(md).toMatch(/\*\*Agent\*\* · [\d-]+ [\d:]+ UTC · tools: `shell`\n\nran it\n$/);
  });

  it('--out writes the file atomically with mode 600', async () => {
    const r = await exportCli(['coder', '--out', 'coder.jsonl'], inst.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`exported 4 rows from 1 session to ${join(inst.root, 'coder.jsonl')}`);
    expect(brief(rowsOf(await readFile(join(inst.root, 'coder.jsonl'), 'utf8')))).toEqual(FIRST);
    expect(statSync(join(inst.root, 'coder.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('--out refuses an existing file unless --force, before Codex starts (exit 2)', async () => {
    const file = join(inst.root, 'coder.jsonl');
    await writeFile(file, 'keep me\n');
    const refused = await exportCli(['coder', '--out', 'coder.jsonl'], inst.root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`angelia: --out ${file} already exists: add --force to replace it, or pick another file name.\n`);
    expect(await readFile(file, 'utf8')).toBe('keep me\n');
    const forced = await exportCli(['coder', '--out', 'coder.jsonl', '--force'], inst.root);
    expect(forced.code).toBe(0);
    expect(brief(rowsOf(await readFile(file, 'utf8')))).toEqual(FIRST);
    expect((await exportCli(['coder', '--force'])).code).toBe(2);
  });

  it('--out never writes into the state folder, even with --force or through a symlink (exit 2)', async () => {
    const before = await readFile(inst.paths.sessionsFile, 'utf8');
    const direct = await exportCli(['coder', '--out', inst.paths.sessionsFile, '--force']);
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain(
      `angelia: --out ${inst.paths.sessionsFile} is inside Angelia's state folder ${inst.paths.stateDir}: exporting there could overwrite Angelia's own files, so it is refused even with --force.`,
    );
    symlinkSync(inst.paths.sessionsFile, join(inst.root, 'looks-harmless.jsonl'));
    const linked = await exportCli(['coder', '--out', 'looks-harmless.jsonl', '--force'], inst.root);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`(it resolves to ${inst.paths.sessionsFile}) is inside Angelia's state folder`);
    expect(await readFile(inst.paths.sessionsFile, 'utf8')).toBe(before);
    expect(statSync(inst.paths.sessionsFile).mode & 0o777).toBe(0o600);
  });

  it('refuses bad usage, an unknown chat and a chat with no sessions, exit 2', async () => {
    expect((await exportCli(['coder', '--format', 'pdf'])).code).toBe(2);
    expect((await exportCli(['coder', '--all', '--session', thread1])).code).toBe(2);
    const unknown = await exportCli(['nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no chat named "nobody"');
    expect(unknown.stderr).toContain('Known chats: coder.');
    new SessionStore(inst.paths.sessionsFile).addChat('coder-2', 'coder');
    const empty = await exportCli(['coder-2']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the chat "coder-2" has no sessions yet');
  });
});

describe('angelia export (two sessions)', () => {
  beforeAll(async () => {
    new SessionStore(inst.paths.sessionsFile).startNew('coder', 'coder');
    inst.model.enqueue({ message: 'second answer' });
    const o = await orchestrator();
    try {
      await turnOn(o, 'coder', 'second session question');
      thread2 = o.chat('coder').view().threadId ?? '';
    } finally {
      await o.shutdown();
    }
    modelCalls = inst.model.modelRequests().length;
  });

  it('exports the new active session by default, every session oldest first with --all', async () => {
    expect(thread2).not.toBe(thread1);
    const active = await exportCli(['coder']);
    expect(active.code).toBe(0);
    expect(brief(rowsOf(active.stdout))).toEqual(SECOND);
    const all = await exportCli(['coder', '--all']);
    expect(all.code).toBe(0);
    const rows = rowsOf(all.stdout);
    expect(brief(rows)).toEqual([...FIRST, ...SECOND]);
    expect(rows.map((r) => r.session)).toEqual([thread1, thread1, thread1, thread1, thread2, thread2]);
    const md = await exportCli(['coder', '--all', '--format', 'md']);
    expect(md.stdout.indexOf('## first question')).toBeGreaterThan(0);
    expect(md.stdout.indexOf('## second session question')).toBeGreaterThan(md.stdout.indexOf('## first question'));
  });

  it('--session takes a unique id prefix of at least 5 characters', async () => {
    const one = await exportCli(['coder', '--session', thread1.slice(0, 13)]);
    expect(one.code).toBe(0);
    expect(brief(rowsOf(one.stdout))).toEqual(FIRST);
    const short = await exportCli(['coder', '--session', thread1.slice(0, 4)]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 5 characters');
    const none = await exportCli(['coder', '--session', 'fffff']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No session of this chat matches "fffff"');
    // The hint names a real session, by the short id /resume shows.
    const ids = [thread1, thread2];
    expect(none.stderr).toContain(`angelia: chat "coder" (${inst.paths.sessionsFile}): No session of this chat matches "fffff". Its sessions: `);
    expect([shortId(thread1, ids), shortId(thread2, ids)].map((id) => `(e.g. --session ${id.slice(1)}).`)).toContain(
      /\(e\.g\. --session [0-9a-f]{8,}\)\./.exec(none.stderr)?.[0],
    );
    const bySuffix = await exportCli(['coder', '--session', shortId(thread2, ids)]);
    expect(bySuffix.code).toBe(0);
    expect(brief(rowsOf(bySuffix.stdout))).toEqual(SECOND);
  });

  it('the two threads were made within seconds: a start they share is "ambiguous", their short ids differ', async () => {
    let common = 0;
    while (thread1[common] === thread2[common]) common++;
    // UUIDv7: the first 5 hex digits change every ~3 days, so threads made seconds apart share them.
    expect(common).toBeGreaterThanOrEqual(5);
    const r = await exportCli(['coder', '--session', thread1.slice(0, common)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`is ambiguous: matches 2 sessions (`);
    expect(shortId(thread1, [thread1, thread2])).not.toBe(shortId(thread2, [thread1, thread2]));
  });

  it("the chat's /export writes the session as Markdown through the same reader", async () => {
    const o = await orchestrator();
    try {
      const items = await turnOn(o, 'coder', '/export');
      const notice = items.find((i) => i.type === 'notice' && /^Exported/.test(i.text));
      const file = /^Exported (\d+) rows to (\S+\.md)/.exec(notice?.type === 'notice' ? notice.text : '');
      expect(file?.[1]).toBe('2');
      const md = await readFile(file?.[2] ?? '', 'utf8');
      expect(md).toContain('**You**');
      expect(md).toContain('second answer');
    } finally {
      await o.shutdown();
    }
    expect(inst.model.modelRequests()).toHaveLength(modelCalls);
  });

  it('--all stays chronological (oldest session first) after the older one was resumed', async () => {
    new SessionStore(inst.paths.sessionsFile).setActive('coder', thread1);
    const all = await exportCli(['coder', '--all']);
    expect(all.code).toBe(0);
    expect(brief(rowsOf(all.stdout))).toEqual([...FIRST, ...SECOND]);
    const active = await exportCli(['coder']);
    expect(brief(rowsOf(active.stdout))).toEqual(FIRST);
  });

  it('an empty session (after /new) exports its heading and "No turns yet", not an error', async () => {
    const fresh = new SessionStore(inst.paths.sessionsFile).startNew('coder', 'coder');
    const ids = [thread1, thread2, fresh.id];
    const md = await exportCli(['coder', '--format', 'md']);
    expect(md.code).toBe(0);
    expect(md.stdout).toBe(
      `# Chat \`coder\` (profile \`coder\`)\n\n## Session ${shortId(fresh.id, ids)}\n\nSession \`${fresh.id}\` · thread (none yet)\n\n_No turns yet._\n`,
    );
    const jsonl = await exportCli(['coder']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toBe('');
    expect(jsonl.stderr).toContain(`note: session ${shortId(fresh.id, [fresh.id])} has no turns yet: nothing to export from it\n`);
    expect(jsonl.stderr).toMatch(/note: other sessions of "coder" have turns: --all, or --session [0-9a-f]{8} \("(first question|second session question)"\)/);
    expect(jsonl.stderr).not.toContain('warning');
  });

  it('names a thread Codex cannot read, exports the rest, and exits 1', async () => {
    const sessions = join(inst.env.CODEX_HOME as string, 'sessions');
    const find = (dir: string): string | null => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) {
          const hit = find(p);
          if (hit) return hit;
        } else if (e.name.endsWith(`${thread1}.jsonl`)) return p;
      }
      return null;
    };
    const rollout = find(sessions);
    expect(rollout).not.toBeNull();
    await rename(rollout as string, join(inst.root, 'moved-away.jsonl'));
    const r = await exportCli(['coder', '--all']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^warning: session …${thread1.slice(-8)} \\("first question"\\): Codex could not read thread ${thread1}: `, 'm'));
    expect(brief(rowsOf(r.stdout))).toEqual(SECOND);
  });
});

describe('a corrupt sessions.json', () => {
  it('gives the same error (file, field path, how to restore the .bak) and exit 3 in export, run and serve', async () => {
    const file = inst.paths.sessionsFile;
    const good = await readFile(file, 'utf8');
    const data = JSON.parse(good) as { chats: Record<string, { history: Array<Record<string, unknown>> }> };
    (data.chats.coder?.history[0] as Record<string, unknown>).started = 'yes';
    await writeFile(file, JSON.stringify(data));
    try {
      const line = `angelia: the sessions store is not valid: chats.coder.history[0].started: Invalid input: expected boolean, received string (${file}) Fix: stop Angelia, then restore the copy kept before the last write: cp '${file}.bak' '${file}'`;
      for (const args of [['export', 'coder'], ['run', 'coder', 'hello'], ['serve']]) {
        const r = await runCli(args, inst.env);
        expect({ args, code: r.code }).toEqual({ args, code: 3 });
        expect(r.stderr.startsWith(line)).toBe(true);
      }
      expect(inst.model.modelRequests()).toHaveLength(modelCalls);
    } finally {
      await writeFile(file, good, { mode: 0o600 });
    }
  });
});

describe('an instance from before <state>/private/', () => {
  /** Puts the private files back at their old top-level names, as an older Angelia kept them. */
  async function toOldLayout(): Promise<string[]> {
    const moved: string[] = [];
    for (const name of PRIVATE_FILES) {
      const now = join(inst.paths.privateDir, name);
      if (!existsSync(now)) continue;
      await rename(now, join(inst.paths.stateDir, name));
      moved.push(name);
    }
    return moved;
  }

  it('angelia export moves the files into private/ before it opens the store, and exports as before', async () => {
    const active = new SessionStore(inst.paths.sessionsFile).active('coder');
    expect(active).not.toBeNull();
    const moved = await toOldLayout();
    expect(moved).toEqual(expect.arrayContaining(['sessions.json', 'sessions.json.bak']));
    const r = await exportCli(['coder']);
    // The store was read from its new place: the export is of its active session (an empty store would
    // give exit 2, "no sessions yet"), as rows or, for a session with no turns yet, a note naming it.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain(active!.id.slice(-8));
    for (const name of moved) {
      expect(existsSync(join(inst.paths.stateDir, name)), name).toBe(false);
      expect(existsSync(join(inst.paths.privateDir, name)), name).toBe(true);
    }
  });

  it('Orchestrator.create moves them too, and the chats come back', async () => {
    const active = new SessionStore(inst.paths.sessionsFile).active('coder');
    expect(active).not.toBeNull();
    const moved = await toOldLayout();
    const o = await orchestrator();
    await o.shutdown();
    expect(new SessionStore(inst.paths.sessionsFile).active('coder')?.id).toBe(active?.id);
    for (const name of moved) expect(existsSync(join(inst.paths.privateDir, name)), name).toBe(true);
    // What stays at an old name is the deny floor's empty mount point (launch/denyMountPoints.ts), never a file with content.
    expect(PRIVATE_FILES.filter((name) => existsSync(join(inst.paths.stateDir, name)) && statSync(join(inst.paths.stateDir, name)).size > 0)).toEqual([]);
  });

  it('an old and a new sessions.json both present: export, run and serve refuse with exit 3, naming both files and the fix; nothing is moved', async () => {
    const old = join(inst.paths.stateDir, 'sessions.json');
    await copyFile(inst.paths.sessionsFile, old);
    const before = await readFile(inst.paths.sessionsFile, 'utf8');
    try {
      for (const args of [['export', 'coder'], ['run', 'coder', 'hello'], ['serve']]) {
        const r = await runCli(args, inst.env);
        expect({ args, code: r.code }).toEqual({ args, code: 3 });
        expect(r.stderr).toContain(`both exist (${old} and ${inst.paths.sessionsFile}), so nothing was moved (${old}) Fix: stop every Angelia process`);
        expect(r.stderr).toContain(`mv '${old}' '${inst.paths.sessionsFile}.old'`);
      }
      expect(await readFile(inst.paths.sessionsFile, 'utf8')).toBe(before);
      expect(existsSync(old)).toBe(true);
      expect(inst.model.modelRequests()).toHaveLength(modelCalls);
    } finally {
      await rm(old, { force: true });
    }
  });
});
