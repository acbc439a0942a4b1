/**
 * `angelia accept` refuses a table that `angelia compile` refuses (a user saw accept take a table whose
 * compile plan had a CONFLICT): a profile whose Codex launch cannot be built — an add_dir that holds the
 * state folder, a cwd that holds CODEX_HOME (compile/codexProfile.ts `unsafe-reach`) — is never
 * accepted; the error names the table file, the field and the fix, and the accepted copy stays as it
 * was. `accept --check` names the refusal, and the window's accept (ProfileService.accept) refuses alike.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInstance } from '../../src/main/core/instance/paths';
import { ProfileService } from '../../src/main/core/profiles/service';
import { angelia, initInstance, type CliInstance } from './cli';

let inst: CliInstance;
let starter: string;
beforeAll(async () => {
  inst = await initInstance('cli-accept');
  starter = await readFile(inst.tableFile, 'utf8');
  const first = await angelia(inst.env, 'accept');
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => inst?.cleanup());

/** Writes the starter table plus one profile `leaky` (folder `cwd`, made here; the add_dirs given); returns the text. */
async function withLeaky(cwd: string, addDirs: string[]): Promise<string> {
  await mkdir(cwd, { recursive: true });
  const text = `${starter}\n[profiles.leaky]\ncwd = ${JSON.stringify(cwd)}\nadd_dirs = ${JSON.stringify(addDirs)}\n`;
  await writeFile(inst.tableFile, text);
  return text;
}

describe('accept refuses what compile refuses', () => {
  it('an add_dir that holds the state folder: exit 1, file, field and fix named, nothing accepted', async () => {
    await withLeaky(join(inst.root, 'work'), [inst.root]);
    const plan = await angelia(inst.env, 'compile', 'leaky');
    expect(plan.stdout).toContain(`CONFLICT ${inst.root} holds Angelia's private state`);

    const r = await angelia(inst.env, 'accept');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `accept error: the table was not accepted: compile would refuse it: profiles.leaky.add_dirs[0]: its Codex launch cannot be built: ${inst.root} holds Angelia's private state (${inst.state})`,
    );
    expect(r.stderr).toContain(`  at: ${inst.tableFile}: profiles.leaky.add_dirs[0]\n`);
    expect(r.stderr).toContain(`  fix: name the folders the agent needs inside ${inst.root} instead, outside ${inst.state}; then run angelia accept again`);
    expect(r.stdout).toContain('profiles.leaky: added');
    expect(r.stdout).not.toContain('run angelia accept to take it');
    expect(await readFile(inst.acceptedTable, 'utf8')).toBe(starter);

    const check = await angelia(inst.env, 'accept', '--check', '--json');
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toMatchObject({
      differs: true,
      taken: false,
      error: {
        code: 'table-compile-refused',
        where: `${inst.tableFile}: profiles.leaky.add_dirs[0]`,
        fix: expect.stringContaining('then run angelia accept again') as unknown,
      },
    });
    const checkText = await angelia(inst.env, 'accept', '--check');
    expect(checkText.code).toBe(1);
    expect(checkText.stderr).toContain('accept error: compile would refuse it: profiles.leaky.add_dirs[0]');
    expect(checkText.stdout).not.toContain('run angelia accept to take it');
  });

  it('a profile cwd that holds CODEX_HOME: refused at profiles.leaky.cwd', async () => {
    const parent = join(inst.root, 'codex-parent');
    const env = { ...inst.env, CODEX_HOME: join(parent, 'codex-home') };
    await withLeaky(parent, []);
    const r = await angelia(env, 'accept');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`compile would refuse it: profiles.leaky.cwd: its Codex launch cannot be built: ${parent} holds Codex's home`);
    expect(r.stderr).toContain(`  at: ${inst.tableFile}: profiles.leaky.cwd\n`);
    expect(await readFile(inst.acceptedTable, 'utf8')).toBe(starter);
  });

  it("the window's accept refuses the same table, and writes nothing", async () => {
    await withLeaky(join(inst.root, 'work'), [inst.root]);
    const service = new ProfileService({ paths: resolveInstance(inst.env), env: inst.env });
    await expect(service.accept()).rejects.toMatchObject({ app: { code: 'table-compile-refused', where: `${inst.tableFile}: profiles.leaky.add_dirs[0]` } });
    expect(await readFile(inst.acceptedTable, 'utf8')).toBe(starter);
  });

  it('once the field is fixed the table is accepted (exit 0)', async () => {
    const text = await withLeaky(join(inst.root, 'work'), [join(inst.root, 'outside')]);
    await mkdir(join(inst.root, 'outside'), { recursive: true });
    const r = await angelia(inst.env, 'accept');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`accepted ${inst.tableFile}`);
    expect(await readFile(inst.acceptedTable, 'utf8')).toBe(text);
  });

  it('after an accept, names the compiled profiles a compile would change, or that none needs it', async () => {
    const text = await withLeaky(join(inst.root, 'work'), [join(inst.root, 'outside')]);
    expect((await angelia(inst.env, 'accept')).code).toBe(0);
    const written = await angelia(inst.env, 'compile', 'leaky', '--write');
    expect(written.code, written.stderr).toBe(0);

    // A [defaults] change (warm_agents) changes no profile's files.
    await writeFile(inst.tableFile, text.replace('[defaults]\n', '[defaults]\nwarm_agents = 2\n'));
    const defaults = await angelia(inst.env, 'accept');
    expect(defaults.code, defaults.stderr).toBe(0);
    expect(defaults.stdout).toContain('defaults.warm_agents');
    expect(defaults.stdout).toContain('no compiled profile needs compiling for this change');
    expect(defaults.stdout).not.toContain('angelia compile --write');

    // A profile's folders change its files: it is named (the never-compiled starter profile is not).
    await mkdir(join(inst.root, 'more'), { recursive: true });
    await withLeaky(join(inst.root, 'work'), [join(inst.root, 'outside'), join(inst.root, 'more')]);
    const folders = await angelia(inst.env, 'accept');
    expect(folders.code, folders.stderr).toBe(0);
    expect(folders.stdout).toContain('compile what this changes: angelia compile --write leaky\n');

    // A profile the change adds is named too (never compiled, it has no files yet).
    await mkdir(join(inst.root, 'fresh'), { recursive: true });
    await writeFile(inst.tableFile, `${await readFile(inst.tableFile, 'utf8')}\n[profiles.fresh]\ncwd = ${JSON.stringify(join(inst.root, 'fresh'))}\n`);
    const added = await angelia(inst.env, 'accept');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/compile what this changes: angelia compile --write (\S+ )*fresh\b/);
    expect(added.stdout).not.toMatch(/--write .*assistant/);
  });
});
