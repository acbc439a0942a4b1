/**
 * The sessions store: short ids and selectors for UUIDv7 thread ids, two stores (and several processes)
 * on one file losing nothing, the lock and its stale takeover, file modes of sessions.json and its
 * .bak, and the error a corrupt file gives (file, field path, how to restore the .bak).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src/shared/result';
import { findSession, readSessionsFile, SessionStore, shortId, type SessionRow } from '../../../src/main/core/chats/sessions';
import { freshDir } from '../../../src/main/demo/codexHome';

const REPO = join(__dirname, '..', '..', '..');
/** Two UUIDv7 thread ids minted 38 s apart by codex 0.169.0 (the same first 7 characters). */
const A = '01a22f64-a2d2-7c80-895c-c7f1a3d8fb2e';
const B = '01a22f65-37d0-7b53-ab4d-bb2386d9dca0';

let dir = '';
let file = '';
beforeEach(async () => {
  dir = await freshDir('sessions');
  file = join(dir, 'sessions.json');
});
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const row = (id: string, extra: Partial<SessionRow> = {}): SessionRow => ({
  id,
  threadId: id,
  created_at: '2026-12-01T02:17:34.000Z',
  last_used_at: '2026-12-01T02:17:34.000Z',
  turns: 1,
  started: true,
  label: '',
  enforcement: 'managed',
  model: null,
  effort: null,
  ...extra,
});

/** The AppFailure `fn` throws (fails the test when it throws something else or nothing). */
function failure(fn: () => unknown): AppFailure['app'] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppFailure);
    return (e as AppFailure).app;
  }
  throw new Error('expected an AppFailure');
}

describe('shortId', () => {
  it('shows the last 8 characters after …, the part of a UUIDv7 that differs between sessions made together', () => {
    expect(A.slice(0, 8)).toBe('01a22f64');
    expect(shortId(A)).toBe('…a3d8fb2e');
    expect(shortId(B)).toBe('…86d9dca0');
  });

  it('grows until it is unique among the given ids, never starting at a dash, and gives a short id whole', () => {
    const x = '01a22f64-0000-7000-8000-00000000abcd';
    const y = '01a22f64-0000-7000-8001-10000000abcd';
    expect(shortId(x, [x, y])).toBe('…00000000abcd');
    expect(shortId(y, [x, y])).toBe('…10000000abcd');
    expect(shortId('aaaaa-1234abcd', ['zzzzzz1234abcd'])).toBe('…a-1234abcd');
    expect(shortId('s1')).toBe('s1');
  });
});

describe('findSession', () => {
  const rows = [row(A, { label: 'first' }), row(B, { label: 'second' })];

  it('takes the start or the end of an id, with or without …, case-insensitive', () => {
    expect(findSession(rows, '01A22F65')).toEqual({ row: rows[1] });
    expect(findSession(rows, 'a3d8fb2e')).toEqual({ row: rows[0] });
    expect(findSession(rows, '…86D9DCA0')).toEqual({ row: rows[1] });
    expect(findSession(rows, B)).toEqual({ row: rows[1] });
  });

  it('an ambiguous start says so and lists the sessions by their short ids', () => {
    expect(findSession(rows, '01a22f6')).toEqual({
      error: '"01a22f6" is ambiguous: matches 2 sessions (…a3d8fb2e "first", …86d9dca0 "second"); give the id as listed or its number.',
    });
  });

  it('no match and too short name a real id as the example', () => {
    expect(findSession(rows, 'zzzzzz')).toEqual({
      error: 'No session of this chat matches "zzzzzz". Its sessions: …a3d8fb2e "first", …86d9dca0 "second" (e.g. /resume a3d8fb2e).',
    });
    expect(findSession(rows, 'zz', { how: '--session' })).toEqual({
      error: '"zz" is too short: give at least 5 characters of the session id, its start or its end (e.g. --session a3d8fb2e).',
    });
  });

  it('a row without a thread is listed as "new" (its id is provisional), and a long list is cut at 10', () => {
    const fresh = row('6b3f0c2e-1111-4222-8333-944455556666', { threadId: null, started: false, turns: 0 });
    expect(findSession([fresh], 'zzzzz', { indexRows: [fresh] })).toEqual({
      error: 'No session of this chat matches "zzzzz". Its sessions: new (e.g. /resume 1).',
    });
    const many = Array.from({ length: 12 }, (_, i) => row(`01a22f64-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`));
    expect(findSession(many, '01a22f64')).toEqual({
      error: expect.stringMatching(/^"01a22f64" is ambiguous: matches 12 sessions \((…000000\d\d, ){9}…000000\d\d and 2 more\)/),
    });
  });

  it('a 1–2 digit selector is a number in the list when a list is given', () => {
    expect(findSession(rows, '2', { indexRows: rows })).toEqual({ row: rows[1] });
    expect(findSession(rows, '3', { indexRows: rows })).toEqual({ error: 'No session 3: the list has 2 (1–2). /resume lists them.' });
  });
});

describe('SessionStore on one file', () => {
  it("two stores interleaving changes lose nothing, and each sees the other's writes", () => {
    const one = new SessionStore(file);
    const two = new SessionStore(file);
    const r1 = one.startNew('coder', 'coder');
    const r2 = two.startNew('coder', 'coder');
    two.addChat('coder-2', 'coder');
    one.recordTurn('coder', r1.id, 'from one');
    one.bindThread('coder', r1.id, A, 'managed');
    two.recordTurn('coder', r2.id, 'from two');
    two.bindThread('coder', r2.id, B, 'managed');
    const r3 = one.startNew('coder-2', 'coder');
    two.setOverride('coder', { model: 'gpt-5.5' });
    expect(
      one
        .list('coder')
        .map((r) => r.id)
        .sort(),
    ).toEqual([A, B]);
    expect(two.active('coder-2')?.id).toBe(r3.id);
    const after = new SessionStore(file);
    expect(after.chats()).toEqual([
      { chatId: 'coder', profile: 'coder' },
      { chatId: 'coder-2', profile: 'coder' },
    ]);
    expect(after.history('coder').map((r) => [r.id, r.label, r.turns])).toEqual([
      [A, 'from one', 1],
      [B, 'from two', 1],
    ]);
    // The last /new (two's) is active, and two's override landed on it.
    expect(after.active('coder')).toMatchObject({ id: B, model: 'gpt-5.5' });
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('processes writing at the same time lose nothing (3 processes × 20 new sessions on one chat)', async () => {
    const script = join(dir, 'writer.ts');
    writeFileSync(
      script,
      [
        `import { SessionStore } from ${JSON.stringify(join(REPO, 'src/main/core/chats/sessions.ts'))};`,
        'const [file, who] = process.argv.slice(2);',
        'const store = new SessionStore(file);',
        'for (let i = 0; i < 20; i++) { const r = store.startNew("shared", "coder"); store.recordTurn("shared", r.id, `${who}-${i}`); }',
      ].join('\n'),
    );
    const run = (who: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, file, who], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('close', resolve);
      });
    expect(await Promise.all(['p1', 'p2', 'p3'].map(run))).toEqual([0, 0, 0]);
    const labels = new SessionStore(file)
      .history('shared')
      .map((r) => r.label)
      .sort();
    expect(labels).toHaveLength(60);
    for (const who of ['p1', 'p2', 'p3']) for (let i = 0; i < 20; i++) expect(labels).toContain(`${who}-${i}`);
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it('a row another store already bound is found by its thread id', () => {
    const one = new SessionStore(file);
    const two = new SessionStore(file);
    const r = one.startNew('coder', 'coder');
    two.bindThread('coder', r.id, A, 'managed');
    expect(one.bindThread('coder', r.id, A, 'managed').id).toBe(A);
    expect(new SessionStore(file).count('coder')).toBe(1);
  });

  it('resolves /resume selectors: ambiguous starts of UUIDv7 ids say so, the shown short id works', () => {
    const store = new SessionStore(file);
    for (const id of [A, B]) {
      const r = store.startNew('coder', 'coder');
      store.bindThread('coder', r.id, id, 'managed');
      store.recordTurn('coder', id, `label ${id.slice(-4)}`);
    }
    expect(store.find('coder', '01a22f6')).toEqual({ error: expect.stringMatching(/^"01a22f6" is ambiguous: matches 2 sessions \(/) });
    expect(store.setActive('coder', '01a22f6')).toBeNull();
    expect(store.setActive('coder', shortId(A))?.id).toBe(A);
    expect(store.active('coder')?.id).toBe(A);
  });

  it('re-creates the file from memory when it was deleted under it', () => {
    const store = new SessionStore(file);
    store.startNew('coder', 'coder');
    rmSync(file);
    store.addChat('other', 'coder');
    expect(new SessionStore(file).chats().map((c) => c.chatId)).toEqual(['coder', 'other']);
  });
});

describe('the lock', () => {
  const lock = () => `${file}.lock`;

  it('takes over a lock whose process is gone', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    writeFileSync(lock(), JSON.stringify({ pid: dead, host: hostname(), at: new Date().toISOString() }));
    new SessionStore(file, { lockWaitMs: 60_000 }).addChat('coder', 'coder');
    expect(new SessionStore(file).chats()).toHaveLength(1);
    expect(existsSync(lock())).toBe(false);
  });

  it('takes over a lock older than the stale age even when its pid is alive (a reused pid), and an empty one', () => {
    writeFileSync(lock(), JSON.stringify({ pid: process.ppid, host: hostname(), at: '2026-01-01T00:00:00.000Z' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock(), old, old);
    new SessionStore(file, { lockWaitMs: 60_000, lockStaleMs: 30_000 }).addChat('a', 'coder');
    writeFileSync(lock(), '');
    utimesSync(lock(), old, old);
    new SessionStore(file, { lockWaitMs: 60_000 }).addChat('b', 'coder');
    expect(new SessionStore(file).chats().map((c) => c.chatId)).toEqual(['a', 'b']);
  });

  it('waits for a live lock and then fails naming the holder and how to clear it; nothing is written', () => {
    writeFileSync(lock(), JSON.stringify({ pid: process.ppid, host: hostname(), at: '2026-12-01T02:17:34.000Z' }));
    const app = failure(() => new SessionStore(file, { lockWaitMs: 100 }).addChat('coder', 'coder'));
    expect(app.code).toBe('sessions-locked');
    expect(app.message).toBe(`the sessions store stays locked by process ${process.ppid} on ${hostname()} (since 2026-12-01T02:17:34.000Z)`);
    expect(app.where).toBe(lock());
    expect(app.fix).toContain(`delete ${lock()}`);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(lock())).toBe(true);
  });
});

describe('files', () => {
  it('sessions.json and sessions.json.bak are mode 600 even when the file was 644; the .bak is the previous version', () => {
    const before = JSON.stringify({ version: 1, chats: { coder: { profile: 'coder', active: A, history: [row(A)] } } });
    writeFileSync(file, before, { mode: 0o644 });
    chmodSync(file, 0o644);
    new SessionStore(file).startNew('coder', 'coder');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(before);
    expect(new SessionStore(file).count('coder')).toBe(2);
  });

  it('a corrupt store names the file, the field path and how to restore the .bak', () => {
    const store = new SessionStore(file);
    store.startNew('coder', 'coder');
    store.startNew('coder', 'coder');
    const good = readFileSync(file, 'utf8');
    const bad = JSON.parse(good) as { chats: { coder: { history: Array<Record<string, unknown>> } } };
    (bad.chats.coder.history[1] as Record<string, unknown>).turns = 'two';
    writeFileSync(file, JSON.stringify(bad));
    const app = failure(() => new SessionStore(file));
    expect(app.code).toBe('sessions-invalid');
    expect(app.message).toBe('the sessions store is not valid: chats.coder.history[1].turns: Invalid input: expected number, received string');
    expect(app.where).toBe(file);
    expect(app.fix).toBe(
      `stop Angelia, then restore the copy kept before the last write: cp '${file}.bak' '${file}' (or move the broken file aside: mv '${file}' '${file}.broken', and Angelia starts with an empty sessions list)`,
    );
  });

  it('without a usable .bak the fix is to move the file aside; JSON that does not parse says so', () => {
    writeFileSync(file, '{"version":1,"chats":');
    const app = failure(() => new SessionStore(file));
    expect(app.code).toBe('sessions-unreadable');
    expect(app.message).toMatch(/^the sessions store is not valid JSON: /);
    expect(app.fix).toBe(
      `stop Angelia, then move the broken file aside (mv '${file}' '${file}.broken'); Angelia starts with an empty sessions list (the conversations themselves stay in CODEX_HOME)`,
    );
    writeFileSync(`${file}.bak`, '{}');
    writeFileSync(file, JSON.stringify({ version: 2, chats: {} }));
    const again = failure(() => readSessionsFile(file));
    expect(again.message).toMatch(/^the sessions store is not valid: version: /);
    expect(again.fix).toMatch(new RegExp(`^the backup ${file}.bak does not load either: `));
  });

  it('a store corrupted under a running one: reads keep the last good data, a change throws and writes nothing', () => {
    const store = new SessionStore(file);
    store.startNew('coder', 'coder');
    writeFileSync(file, 'not json');
    expect(store.count('coder')).toBe(1);
    expect(failure(() => store.startNew('coder', 'coder')).code).toBe('sessions-unreadable');
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });

  it('creates its folder mode 700 when missing', () => {
    const nested = join(dir, 'state', 'sessions.json');
    new SessionStore(nested).addChat('coder', 'coder');
    expect(statSync(join(dir, 'state')).mode & 0o777).toBe(0o700);
  });
});
