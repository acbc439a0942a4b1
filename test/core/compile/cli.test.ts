import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../instance/testDir';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let root: string;
let env: Record<string, string>;

const MODULES: Record<string, [file: string, exportName: string]> = {
  init: ['init.ts', 'init'],
  'check-config': ['check-config.ts', 'checkConfig'],
  compile: ['compile.ts', 'compile'],
};

/**
 * Runs one command module in a fresh Node process (through tsx), as `angelia <command> <args>` would,
 * with the test instance's environment. The module is imported directly so that commands other
 * engineers are still adding to the table cannot break these tests.
 */
function angelia(command: string, ...args: string[]): Promise<Run> {
  const [file, exportName] = MODULES[command]!;
  const url = pathToFileURL(join(REPO_ROOT, 'src/main/cli/commands', file)).href;
  const script = `const m = await import(${JSON.stringify(url)}); process.exitCode = await m[${JSON.stringify(exportName)}].run(${JSON.stringify(args)});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  root = await makeTestDir('cli');
  await mkdir(join(root, 'home'), { recursive: true });
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    ANGELIA_STATE_DIR: join(root, 'state'),
    CODEX_HOME: join(root, 'codex-home'),
  };
});
afterAll(async () => removeTestDir(root));

describe('angelia init / check-config / compile', () => {
  it('init creates the instance, and refuses a second time', async () => {
    const first = await angelia('init');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(join(root, 'state', 'workspace', 'angelia.toml'));
    expect(first.stdout).toMatch(/^ {2}and sign Codex in with angelia login \(angelia account says whether it is/m);
    const second = await angelia('init');
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/^init error: a table already exists/);
  });

  it('check-config prints the table used and the profile count', async () => {
    const r = await angelia('check-config');
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain(`table: ${join(root, 'state', 'workspace', 'angelia.toml')}`);
    expect(r.stdout).toMatch(/^ok: 1 profile$/m);
    expect(r.stdout).toContain('warning: profiles.assistant: never compiled');
    expect(r.stdout).toContain('  fix: run angelia compile assistant --write');
    const j = await angelia('check-config', '--json');
    const out = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['table', 'ok', 'profiles', 'errors', 'warnings']);
    expect(out).toMatchObject({ table: join(root, 'state', 'workspace', 'angelia.toml'), ok: true, profiles: 1, errors: [] });
    expect(out.warnings).toEqual([
      expect.objectContaining({ path: 'profiles.assistant', message: expect.stringContaining('never compiled'), fix: 'run angelia compile assistant --write' }),
    ]);
  });

  it('compile --json prints exactly one object with the stable keys first', async () => {
    const r = await angelia('compile', 'assistant', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(out).slice(0, 6)).toEqual(['profile', 'sandboxed', 'codexArgs', 'env', 'filesystem', 'warnings']);
    expect(out).toMatchObject({ profile: 'assistant', sandboxed: true, warnings: [], mcpServers: [], plan: { upToDate: false, conflicts: [] } });
    expect((out.codexArgs as string[]).at(-1)).toBe('app-server');
    expect((out.filesystem as Record<string, string>)[join(root, 'state', 'api.token')]).toBe('deny');
    expect((out.filesystem as Record<string, string>)[join(root, 'codex-home', 'auth.json')]).toBe('deny');
  });

  it('compile without --json prints the plan and the launch, and writes nothing', async () => {
    const r = await angelia('compile', 'assistant');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^profile assistant \(.*\):$/m);
    expect(r.stdout).toContain('  + .claude/settings.json');
    expect(r.stdout).toContain(`  + deny Read(${join(root, 'home', '.ssh')}/**)`);
    expect(r.stdout).toContain('  + launch guard');
    expect(r.stdout).toContain("  note: deny rules and writable folders are held by Codex's own sandbox");
    expect(await stat(join(root, 'state', 'compiled', 'assistant.json')).catch(() => null)).toBeNull();
    expect(r.stdout).toMatch(new RegExp(`deny +${join(root, 'home', '.ssh').replace(/[.]/g, '\\.')} +credential location`));
    expect(r.stdout).toContain("network: on through Codex's proxy");
    expect(r.stdout).toMatch(/^codex -c .* app-server$/m);
  });

  it('an unknown key is a config error with path and fix; compile of an unknown profile fails', async () => {
    const table = join(root, 'state', 'workspace', 'angelia.toml');
    const text = await readFile(table, 'utf8');
    await writeFile(table, text.replace('sandbox = true', 'sanbox = true'));
    const r = await angelia('check-config');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('config error: profiles.assistant.sanbox: unknown key; nothing reads it (a misspelling?)');
    expect(r.stderr).toContain(`at: ${table}: profiles.assistant.sanbox`);
    expect(r.stderr).toContain('fix: did you mean "sandbox"');
    const j = await angelia('check-config', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      profiles: 0,
      warnings: [],
      errors: [
        {
          code: 'table-invalid',
          path: 'profiles.assistant.sanbox',
          where: `${table}: profiles.assistant.sanbox`,
          fix: expect.stringContaining('did you mean "sandbox"'),
        },
      ],
    });
    await writeFile(table, text);
    const unknown = await angelia('compile', 'nobody', '--json');
    // An unknown name is a usage error in every command (exit 2).
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('compile error: there is no profile "nobody"');
  });

  it('bad usage exits 2; --write without names refuses', async () => {
    expect((await angelia('compile', '--json')).code).toBe(2);
    const write = await angelia('compile', '--write');
    expect(write.code).toBe(2);
    expect(write.stderr).toContain('--write needs explicit profile names');
    expect((await angelia('compile', '--write', '--check', 'assistant')).code).toBe(2);
    expect((await angelia('compile', '--json', '--write', 'assistant')).code).toBe(2);
    expect((await angelia('check-config', '--bogus')).code).toBe(2);
  });

  it('--write refuses a profile with a conflict and writes nothing', async () => {
    const settings = join(root, 'state', 'workspace', 'profiles', 'assistant', '.claude', 'settings.json');
    await mkdir(join(settings, '..'), { recursive: true });
    await writeFile(settings, '{ "permissions": ');
    const r = await angelia('compile', '--write', 'assistant');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  CONFLICT .claude/settings.json does not parse as JSON');
    expect(r.stderr).toContain('compile error: nothing was written: 1 conflict(s)');
    expect(await readFile(settings, 'utf8')).toBe('{ "permissions": ');
    expect(await stat(join(root, 'state', 'compiled', 'assistant.json')).catch(() => null)).toBeNull();
    await rm(settings);
  });

  it('--write then --check: exit 0 when up to date, 1 on drift; a never-compiled profile is skipped', async () => {
    const table = join(root, 'state', 'workspace', 'angelia.toml');
    const w = await angelia('compile', '--write', 'assistant');
    expect(w.code).toBe(0);
    expect(w.stdout).toContain('  + launch guard');
    expect((await stat(join(root, 'state', 'compiled', 'assistant.json'))).mode & 0o777).toBe(0o600);
    const ok = await angelia('compile', '--check');
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toContain('profile assistant: up to date');
    expect((await angelia('compile', 'assistant')).stdout).toContain('  up to date');
    await mkdir(join(root, 'state', 'workspace', 'profiles', 'second'), { recursive: true });
    await writeFile(table, `${await readFile(table, 'utf8')}\n[profiles.second]\ncwd = "profiles/second"\n`);
    const drift = await angelia('compile', '--check');
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('profile second: never compiled (skipped)');
    expect(drift.stdout).toContain(`  + deny Read(${join(root, 'state', 'workspace', 'profiles', 'second')}/**)`);
    expect(drift.stderr).toContain('compile --check: assistant differs');
  });
});
