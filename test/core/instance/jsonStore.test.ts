/**
 * The state-file store: what a read answers (table), atomic writes with the `.bak`, the read-modify-write
 * under the lock (overlapping async holders in one process wait for each other), and the lock: a stale
 * proper-lockfile folder and stale lock files of an older Angelia are taken over, a live one is waited for.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonLockError, parseJson, readJsonSync, updateJsonSync, withLock, withLockSync, writeJsonSync } from '../../../src/main/core/instance/jsonStore';
import { makeTestDir, removeTestDir } from './testDir';

const Schema = z.object({ version: z.literal(1), items: z.array(z.number()) });
let dir: string;
let n = 0;
const fresh = (): string => join(dir, `f${++n}.json`);
beforeAll(async () => {
  dir = await makeTestDir('jsonstore');
});
afterAll(async () => removeTestDir(dir));

describe('parseJson', () => {
  it.each([
    ['{"version":1,"items":[1]}', 'ok'],
    ['{"version":1,"items":', 'not-json'],
    ['{"version":2,"items":[]}', 'invalid'],
    ['{"version":1,"items":["a"]}', 'invalid'],
  ])('%s: %s', (raw, kind) => {
    expect(parseJson(raw, Schema).kind).toBe(kind);
  });

  it('names the field path of the first problem', () => {
    const read = parseJson('{"version":1,"items":[1,"x"]}', Schema);
    expect(read.kind === 'invalid' && read.issues[0]?.path).toEqual(['items', 1]);
  });
});

describe('reads and writes', () => {
  it('missing, then ok with the raw text; written mode 600 in a folder made 700; the .bak is the text replaced', () => {
    const file = join(dir, 'nested', 'state.json');
    expect(readJsonSync(file, Schema)).toEqual({ kind: 'missing' });
    writeJsonSync(file, { version: 1, items: [1] });
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = readFileSync(file, 'utf8');
    expect(first).toBe('{\n  "version": 1,\n  "items": [\n    1\n  ]\n}\n');
    writeJsonSync(file, { version: 1, items: [2] }, { backup: first });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(first);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o600);
    expect(readJsonSync(file, Schema)).toMatchObject({ kind: 'ok', data: { items: [2] } });
  });
});

describe('updateJsonSync', () => {
  it('applies the change to the file as it is on disk; write: false writes nothing; no lock is left', () => {
    const file = fresh();
    const initial = (): z.infer<typeof Schema> => ({ version: 1, items: [] });
    updateJsonSync(
      file,
      Schema,
      (d) => {
        d.items.push(1);
        return { result: null };
      },
      { initial },
    );
    writeFileSync(file, JSON.stringify({ version: 1, items: [1, 2] }));
    const out = updateJsonSync(
      file,
      Schema,
      (d) => {
        d.items.push(3);
        return { result: d.items.length };
      },
      { initial, backup: true },
    );
    expect(out.result).toBe(3);
    expect(readJsonSync(file, Schema)).toMatchObject({ data: { items: [1, 2, 3] } });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('{"version":1,"items":[1,2]}');
    const before = statSync(file).mtimeMs;
    updateJsonSync(file, Schema, () => ({ result: null, write: false }));
    expect(statSync(file).mtimeMs).toBe(before);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a file that does not load is the failure given, and nothing is written', () => {
    const file = fresh();
    writeFileSync(file, 'not json');
    expect(() => updateJsonSync(file, Schema, () => ({ result: null }), { failure: (r) => new Error(`bad: ${r.kind}`) })).toThrow('bad: not-json');
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});

describe('the lock', () => {
  it('overlapping async holders in one process run one at a time', async () => {
    const file = fresh();
    const order: string[] = [];
    let second: Promise<void> = Promise.resolve();
    await withLock(file, async () => {
      order.push('first in');
      // Asked while the first holds it: it polls until the first lets go.
      second = withLock(file, async () => {
        order.push('second');
      });
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
      order.push('first out');
    });
    await second;
    expect(order).toEqual(['first in', 'first out', 'second']);
  });

  it('takes over a stale lock folder and the stale lock files of an older Angelia (dead pid, empty, old)', () => {
    const file = fresh();
    const lock = `${file}.lock`;
    const old = new Date(Date.now() - 60_000);
    mkdirSync(lock);
    utimesSync(lock, old, old);
    expect(withLockSync(file, () => 'ran')).toBe('ran');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    for (const text of [JSON.stringify({ pid: dead, host: hostname(), at: '' }), '', JSON.stringify({ pid: process.ppid, host: hostname(), at: '' })]) {
      writeFileSync(lock, text);
      if (text === '' || !text.includes(String(dead))) utimesSync(lock, old, old);
      expect(withLockSync(file, () => 'ran', { waitMs: 60_000, staleMs: 30_000 })).toBe('ran');
      expect(existsSync(lock)).toBe(false);
    }
  });

  it('waits for a live lock and then fails with the holder of a lock file, or none for a lock folder', () => {
    const file = fresh();
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: 'then' }));
    let err: unknown = null;
    try {
      withLockSync(file, () => 'ran', { waitMs: 50 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JsonLockError);
    expect(err).toMatchObject({ kind: 'timeout', lock, holder: { pid: process.ppid, host: hostname(), at: 'then' } });
    const folder = fresh();
    mkdirSync(`${folder}.lock`);
    expect(() => withLockSync(folder, () => 'ran', { waitMs: 50 })).toThrow(expect.objectContaining({ kind: 'timeout', holder: null }));
    expect(readdirSync(dir)).toContain(`${folder.slice(dir.length + 1)}.lock`);
  });
});
