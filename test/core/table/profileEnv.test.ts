/**
 * A profile's `env` (names passed to its agent's commands on purpose) from the table to Codex's
 * `shell_environment_policy.include_only` (docs/security-model.md "Environment of the agent's
 * commands"): names only, checked like an mcp capability's, never one Angelia keeps from Codex; the
 * allowlist holds the plain variables, Angelia's own and those names, and never the chat token.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEnv } from '../../../src/main/core/compile/cache';
import { commandEnvNames, compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { loadTable } from '../../../src/main/core/table/load';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { FACTS, fixtureTable } from '../compile/fixture';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let n = 0;

beforeAll(async () => {
  root = await makeTestDir('profile-env');
  await mkdir(join(root, 'coder'), { recursive: true });
});
afterAll(async () => removeTestDir(root));

async function load(text: string): Promise<Awaited<ReturnType<typeof loadTable>>> {
  const file = join(root, `t${++n}.toml`);
  await writeFile(file, text);
  return loadTable(file, { home: root, env: {} });
}

async function loadError(text: string): Promise<AppError> {
  const e = await load(text).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'the table must not load').toBeInstanceOf(AppFailure);
  return (e as AppFailure).app;
}

describe('profiles.<name>.env', () => {
  it('loads names, de-duplicated in table order; none by default', async () => {
    const t = await load('[profiles.coder]\ncwd = "coder"\nenv = ["GH_PAT", "DATABASE_URL", "GH_PAT"]\n[profiles.plain]\ncwd = "coder"\n');
    expect(t.profiles.coder?.env).toEqual(['GH_PAT', 'DATABASE_URL']);
    expect(t.profiles.plain?.env).toEqual([]);
  });

  it('a value instead of a name is an error naming the key path and the fix', async () => {
    const e = await loadError('[profiles.coder]\ncwd = "coder"\nenv = ["GH_PAT=ghp_123"]\n');
    expect(e.where).toMatch(/profiles\.coder\.env\[0\]$/);
    expect(e.message).toContain('never a value');
    expect(e.fix).toContain('list variable NAMES');
  });

  it('a variable Angelia never gives Codex (a model key, its own channel) is refused', async () => {
    for (const name of ['OPENAI_API_KEY', 'ANGELIA_API_TOKEN']) {
      const e = await loadError(`[profiles.coder]\ncwd = "coder"\nenv = ["${name}"]\n`);
      expect(e.where, name).toMatch(/profiles\.coder\.env\[0\]$/);
      expect(e.message, name).toContain('never gives to Codex');
    }
  });
});

describe("the allowlist of the agent's commands", () => {
  it("plain variables, the cache and temp variables, the in-sandbox angelia command's, then the profile's names", () => {
    const names = commandEnvNames({ env: ['GH_PAT', 'PATH'] });
    expect(names).toEqual(
      expect.arrayContaining([
        'PATH',
        'HOME',
        'LANG',
        'LC_*',
        'TERM',
        'USER',
        'LOGNAME',
        'SHELL',
        'TMPDIR',
        ...Object.keys(cacheEnv('/c')),
        'ANGELIA_MAILBOX',
        'ANGELIA_SESSION_KEY',
        'ANGELIA_API_SOCK',
        'ANGELIA_ASK',
        'GH_PAT',
      ]),
    );
    expect(names.at(-1)).toBe('GH_PAT');
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('ANGELIA_API_TOKEN');
    expect(names.filter((n) => /KEY|TOKEN|SECRET|URL|DSN/.test(n))).toEqual(['ANGELIA_SESSION_KEY']);
  });

  it('is given to Codex as include_only, with its default name excludes off, sandboxed or not', () => {
    for (const sandbox of [true, false]) {
      const table = fixtureTable('default', sandbox);
      table.profiles.coder = { ...table.profiles.coder!, env: ['GH_PAT'] };
      const args = compileCodexLaunch(table, 'coder', FACTS).codexArgs;
      expect(args).toContain('shell_environment_policy.inherit="all"');
      expect(args).toContain('shell_environment_policy.ignore_default_excludes=true');
      const only = args.find((a) => a.startsWith('shell_environment_policy.include_only='));
      expect(only).toBe(`shell_environment_policy.include_only=${JSON.stringify(commandEnvNames({ env: ['GH_PAT'] })).replace(/","/g, '", "')}`);
      expect(args.some((a) => a.startsWith('shell_environment_policy.exclude='))).toBe(false);
    }
  });
});
