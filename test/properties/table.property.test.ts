/**
 * Property: the table loader (core/table/load.ts `parseTableText`, then `resolveTable` on a scratch
 * workspace) on generated valid tables and on mutations of them: keys renamed or added, values of the
 * wrong type, Unicode and control characters, huge values, deep nesting, duplicated keys and headers,
 * broken TOML. It never throws anything but its own failures, and every failure names where and how to
 * fix it: `table-syntax` with `<file>:<line>:<column>`, or `table-invalid` (TableFailure) whose every
 * problem has a key path, a message and a fix (core/table/errors.ts). A valid table loads.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPath, TableFailure } from '../../src/main/core/table/errors';
import { parseTableText, resolveTable } from '../../src/main/core/table/load';
import { EFFORTS, NOTIFICATION_SETTINGS, PERMISSION_MODES } from '../../src/shared/profileFields';
import { AppFailure } from '../../src/shared/result';
import { removeTestDir } from '../core/instance/testDir';
import { makeWorkspace, type TestWorkspace } from '../core/table/testTable';
import { fcTimeout, holdsAsync } from './support';

const FILE = 'table.property';
let ws: TestWorkspace;

type Obj = Record<string, unknown>;

const profileName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const validProfile: fc.Arbitrary<Obj> = fc.record(
  {
    cwd: fc.constantFrom('profiles/a', 'profiles/b', 'profiles/c'),
    backend: fc.constant('codex'),
    permission_mode: fc.constantFrom(...PERMISSION_MODES),
    sandbox: fc.boolean(),
    add_dirs: fc.constantFrom([], ['shared-dir']),
    read_dirs: fc.constantFrom([], ['shared-dir']),
    model: fc.constantFrom('gpt-5.5', 'o3'),
    effort: fc.constantFrom(...EFFORTS),
    unsafe_ok: fc.boolean(),
    isolated: fc.boolean(),
    shared_write: fc.boolean(),
    accept_from: fc.constantFrom([], ['*']),
    answer_from: fc.constantFrom([], ['*']),
    media_tags: fc.boolean(),
    env: fc.constantFrom([], ['GITHUB_TOKEN']),
    notifications: fc.constantFrom(...NOTIFICATION_SETTINGS),
  },
  { requiredKeys: ['cwd'] },
);
const validTable: fc.Arbitrary<Obj> = fc.record(
  {
    defaults: fc.record(
      {
        permission_timeout_minutes: fc.integer({ min: 1, max: 600 }),
        turn_stall_minutes: fc.integer({ min: 0, max: 600 }),
        idle_exit_minutes: fc.integer({ min: 1, max: 600 }),
      },
      { requiredKeys: [] },
    ),
    profiles: fc.dictionary(profileName, validProfile, { minKeys: 1, maxKeys: 3 }),
  },
  { requiredKeys: ['profiles'] },
);

/** Strings that are hard to carry: Unicode, control characters, quotes, backslashes, very long. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\u0007', '\u001b', '\u007f', '\r', '\n', '\t', '"', "'", '\\', '\u2028', '\ufeff', '😀', 'ü', '../'),
    maxLength: 12,
  }),
  fc.nat({ max: 200_000 }).map((n) => 'x'.repeat(n)),
);
/** A value of any TOML type, and some odd numbers. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, Infinity, -Infinity, Number.NaN, 1e308),
  fc.boolean(),
  fc.date({ noInvalidDate: true, min: new Date('0001-01-01'), max: new Date('9999-12-31') }),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 3 }),
  fc.nat({ max: 60 }).map((depth) => nested(depth)),
);

function nested(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? { k: v } : [v];
  return v;
}

/** A mutation of the table as data: where (a path of keys, chosen by index) and what. */
type DataMutation =
  { t: 'rename'; at: number; suffix: string } | { t: 'add'; at: number; key: string; value: unknown } | { t: 'set'; at: number; value: unknown };

/** A mutation of the table's text. */
type TextMutation =
  | { t: 'dupLine'; at: number }
  | { t: 'delete'; at: number; n: number }
  | { t: 'insert'; at: number; text: string }
  | { t: 'truncate'; at: number }
  | { t: 'deepText'; depth: number };

const dataMutation: fc.Arbitrary<DataMutation> = fc.oneof(
  fc.record({
    t: fc.constant('rename' as const),
    at: fc.nat(),
    suffix: fc.oneof(fc.constantFrom('s', '_', 'X', ' '), fc.string({ minLength: 1, maxLength: 3 })),
  }),
  fc.record({
    t: fc.constant('add' as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom('sanbox', 'routes', 'cwd', '__proto__', 'constructor', ''), nastyString),
    value: anyValue,
  }),
  fc.record({ t: fc.constant('set' as const), at: fc.nat(), value: anyValue }),
);
const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ t: fc.constant('dupLine' as const), at: fc.nat() }),
  fc.record({ t: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    t: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom('[', ']', '=', '"', '\n[profiles]\n', '\\u', '\u0000', '\r'), nastyString),
  }),
  fc.record({ t: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ t: fc.constant('deepText' as const), depth: fc.integer({ min: 100, max: 5000 }) }),
);

/** Every object reachable in `v` with the path to it (the table itself first). */
function objects(v: unknown, path: string[] = []): Array<{ obj: Obj; path: string[] }> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Date) return [];
  const out = [{ obj: v as Obj, path }];
  for (const [k, child] of Object.entries(v)) out.push(...objects(child, [...path, k]));
  return out;
}

function mutateData(table: Obj, m: DataMutation): void {
  const objs = objects(table);
  const { obj } = objs[m.at % objs.length]!;
  const keys = Object.keys(obj);
  const key = keys[m.at % Math.max(1, keys.length)];
  if (m.t === 'add') Object.defineProperty(obj, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
  else if (key === undefined) return;
  else if (m.t === 'rename') {
    const value = obj[key];
    delete obj[key];
    obj[key + m.suffix] = value;
  } else obj[key] = m.value;
}

function mutateText(text: string, m: TextMutation): string {
  const at = m.t === 'deepText' ? 0 : m.at % (text.length + 1);
  switch (m.t) {
    case 'dupLine': {
      const lines = text.split('\n');
      const i = m.at % lines.length;
      return [...lines.slice(0, i + 1), lines[i], ...lines.slice(i + 1)].join('\n');
    }
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.n);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'truncate':
      return text.slice(0, at);
    case 'deepText':
      return `${text}\n[defaults]\nx = ${'['.repeat(m.depth)}1${']'.repeat(m.depth)}\n`;
  }
}

/** The shape every failure of the loader must have (see the file comment); anything else fails the property. */
function checkFailure(e: unknown, file: string): void {
  expect(e, 'only the loader’s own failures').toBeInstanceOf(AppFailure);
  const app = (e as AppFailure).app;
  expect(app.fix, `a fix for: ${app.message}`).toMatch(/\S/);
  expect(app.message).toMatch(/\S/);
  if (app.code === 'table-syntax') {
    expect(app.where).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+$`));
    return;
  }
  expect(app.code).toBe('table-invalid');
  expect(e).toBeInstanceOf(TableFailure);
  const problems = (e as TableFailure).problems;
  expect(problems.length).toBeGreaterThan(0);
  for (const p of problems) {
    expect(p.path.length, `a key path for: ${p.message}`).toBeGreaterThan(0);
    expect(p.fix, `a fix for ${keyPath(p.path)}: ${p.message}`).toMatch(/\S/);
    expect(p.message).toMatch(/\S/);
  }
  expect(app.where).toBe(`${file}: ${keyPath(problems[0]!.path)}`);
  expect(app.message.startsWith(`${keyPath(problems[0]!.path)}: `)).toBe(true);
}

/** Parses and resolves `text`; true when it loaded, false when it failed as it must (checked). */
async function load(text: string): Promise<boolean> {
  const file = join(ws.ws, 'angelia.toml');
  try {
    await resolveTable(parseTableText(text, file), file, { home: ws.home, env: {} });
    return true;
  } catch (e) {
    checkFailure(e, file);
    return false;
  }
}

beforeAll(async () => {
  ws = await makeWorkspace('table-property');
});
afterAll(async () => {
  await removeTestDir(ws.root);
});

describe('property: the table loader', () => {
  it(
    'valid tables load; mutated ones fail with a key path and a fix, never another exception',
    async () => {
      await holdsAsync(
        FILE,
        'table-mutations',
        fc.asyncProperty(validTable, fc.array(dataMutation, { maxLength: 3 }), fc.array(textMutation, { maxLength: 2 }), async (table, data, texts) => {
          const text = stringify(table);
          if (!data.length && !texts.length) expect(await load(text), 'a valid table loads').toBe(true);
          const mutated = structuredClone(table);
          for (const m of data) mutateData(mutated, m);
          let mutatedText: string;
          try {
            mutatedText = stringify(mutated);
          } catch {
            mutatedText = text; // a value TOML cannot hold (smol-toml refuses it): the text mutations alone
          }
          for (const m of texts) mutatedText = mutateText(mutatedText, m);
          await load(mutatedText);
        }),
      );
    },
    fcTimeout(60),
  );
});
