/**
 * `angelia compile` without `--write` (the plan): it exits 1 when a plan shows a CONFLICT (what
 * `--write` would refuse), naming the profile on stderr, in text and with `--json`; and it tells a table
 * on disk that differs from the accepted copy apart from an up-to-date one — a user saw "up to date"
 * while an edit of the table was never accepted. `--check` keeps its meaning. Also `check-config`
 * names the table once (it printed "table:" on stdout and again on stderr).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { angelia, initInstance, type CliInstance } from './cli';

let inst: CliInstance;
beforeAll(async () => {
  inst = await initInstance('cli-plan');
});
afterAll(async () => inst?.cleanup());

describe('compile (the plan)', () => {
  it('up to date after --write; a change never accepted is named, never a bare "up to date"', async () => {
    const write = await angelia(inst.env, 'compile', '--write', 'assistant');
    expect(write.code, write.stderr).toBe(0);
    const fresh = await angelia(inst.env, 'compile', 'assistant');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/^ {2}up to date$/m);
    expect(fresh.stdout).not.toContain('accepted copy');

    // An edit on disk that changes nothing compile writes, and is not accepted.
    const starter = await readFile(inst.tableFile, 'utf8');
    await writeFile(inst.tableFile, starter.replace('# model = "gpt-5.5"', 'model = "gpt-5.5"'));
    const plan = await angelia(inst.env, 'compile', 'assistant');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`the table on disk differs from the accepted copy (${inst.acceptedTable}): 1 change never accepted`);
    expect(plan.stdout).toContain('  profiles.assistant.model: added "gpt-5.5"');
    expect(plan.stdout).not.toMatch(/^ {2}up to date$/m);
    expect(plan.stdout).toContain('  up to date with the table on disk, not with the accepted copy\n');
    expect(plan.stdout).toContain(
      '  note: the table on disk has changes for this profile that were never accepted: run angelia accept, then angelia compile --write assistant\n',
    );
    const json = await angelia(inst.env, 'compile', 'assistant', '--json');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { plan: unknown }).plan).toMatchObject({ upToDate: true, conflicts: [], tableNotAccepted: true });
    // --write still refuses it, and --check keeps its meaning (the files match what compile would write).
    expect((await angelia(inst.env, 'compile', '--write', 'assistant')).stderr).toContain('not yet accepted');
    expect(await angelia(inst.env, 'compile', '--check')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('profile assistant: up to date') as unknown,
    });

    const accepted = await angelia(inst.env, 'accept');
    expect(accepted.code, accepted.stderr).toBe(0);
    const after = await angelia(inst.env, 'compile', 'assistant');
    expect(after.stdout).toMatch(/^ {2}up to date$/m);
    expect(after.stdout).not.toContain('accepted copy');
    expect(JSON.parse((await angelia(inst.env, 'compile', 'assistant', '--json')).stdout)).toMatchObject({ plan: { upToDate: true, tableNotAccepted: false } });
  });

  it('exits 1 when a plan shows a CONFLICT, in text and with --json', async () => {
    const settings = join(inst.profileDir, '.claude', 'settings.json');
    await mkdir(join(settings, '..'), { recursive: true });
    await writeFile(settings, '{ "permissions": ');
    try {
      const plan = await angelia(inst.env, 'compile', 'assistant');
      expect(plan.code).toBe(1);
      expect(plan.stdout).toContain('  CONFLICT .claude/settings.json does not parse as JSON');
      expect(plan.stderr).toBe(
        'compile: assistant has a CONFLICT: compile --write would refuse and write nothing; resolve each CONFLICT line (never fixed automatically)\n',
      );
      const json = await angelia(inst.env, 'compile', 'assistant', '--json');
      expect(json.code).toBe(1);
      expect((JSON.parse(json.stdout) as { plan: { upToDate: boolean; conflicts: string[] } }).plan).toMatchObject({
        upToDate: false,
        conflicts: [expect.stringContaining('does not parse as JSON')],
      });
    } finally {
      await rm(settings);
    }
  });
});

describe('check-config', () => {
  it('names the table once, on stdout, also when the table does not load', async () => {
    const text = await readFile(inst.tableFile, 'utf8');
    const ok = await angelia(inst.env, 'check-config');
    expect(ok.code).toBe(0);
    expect(`${ok.stdout}${ok.stderr}`.match(/^table: /gm)).toHaveLength(1);
    await writeFile(inst.tableFile, text.replace('sandbox = true', 'sandbox = true\nadd_dirs = "one"'));
    try {
      const bad = await angelia(inst.env, 'check-config');
      expect(bad.code).toBe(1);
      expect(bad.stdout).toBe(`table: ${inst.tableFile}\n`);
      expect(bad.stderr).toMatch(/^config error: profiles\.assistant\.add_dirs: must be an array, not "one"\n/);
      expect(`${bad.stdout}${bad.stderr}`.match(/^table: /gm)).toHaveLength(1);
    } finally {
      await writeFile(inst.tableFile, text);
    }
  });

  it('names a loosening that waits for compile --write, as a start would refuse it (launch/check.ts)', async () => {
    const write = await angelia(inst.env, 'compile', '--write', 'assistant');
    expect(write.code, write.stderr).toBe(0);
    const text = await readFile(inst.tableFile, 'utf8');
    await writeFile(inst.tableFile, text.replace('sandbox = true', 'sandbox = true\nenv = ["PGHOST"]'));
    try {
      const json = await angelia(inst.env, 'check-config', '--json');
      expect(json.code, json.stderr).toBe(0);
      expect((JSON.parse(json.stdout) as { warnings: unknown[] }).warnings).toContainEqual(
        expect.objectContaining({
          path: 'profiles.assistant',
          message: expect.stringContaining(
            "its agent will not start: the accepted table now passes 1 environment variable(s) to this profile's commands that the last compile did not (PGHOST)",
          ) as unknown,
          fix: 'run angelia compile assistant --write',
        }),
      );
      const plain = await angelia(inst.env, 'check-config');
      expect(plain.stdout).toContain('warning: profiles.assistant: its agent will not start: the accepted table now passes 1 environment variable(s)');
    } finally {
      await writeFile(inst.tableFile, text);
    }
    const back = await angelia(inst.env, 'check-config', '--json');
    expect(JSON.stringify((JSON.parse(back.stdout) as { warnings: unknown[] }).warnings)).not.toContain('its agent will not start');
  });
});
