/**
 * The accepted table end to end: the first run takes the table; an edit on disk (here: one that gives the
 * agent a folder outside) waits, and a real Codex agent still runs on the accepted copy; `angelia accept
 * --check` shows the field-by-field diff and exits 1; `angelia accept` takes it; a loosening (a folder to
 * write, plan mode → default) waits for `compile --write`; a broken table is refused naming its path. The command modules run in a fresh Node process through tsx.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { REPO_ROOT } from '../core/instance/testDir';
import { makeInstance, type TestInstance } from '../fixtures/instance';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `angelia accept <args>` with the instance's environment (the module imported directly, through tsx). */
function accept(i: TestInstance, ...args: string[]): Promise<Run> {
  return command(i, 'accept', 'accept', args);
}

/** `angelia <name> <args>` (module `commands/<file>.ts`, export `name`) with the instance's environment, through tsx. */
function command(i: TestInstance, file: string, name: string, args: string[]): Promise<Run> {
  const url = pathToFileURL(join(REPO_ROOT, `src/main/cli/commands/${file}.ts`)).href;
  const script = `const m = await import(${JSON.stringify(url)}); process.exitCode = await m.${name}.run(${JSON.stringify(args)});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, env: i.env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let inst: TestInstance | null = null;
const orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.splice(0).map((o) => o.shutdown()));
  await inst?.cleanup();
  inst = null;
});

/** One turn in a fresh orchestrator (approvals denied); returns the turn's items. */
async function turn(i: TestInstance, text: string): Promise<{ o: Orchestrator; items: ChatItem[] }> {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  orchs.push(o);
  o.hub.subscribe((e) => {
    if (e.event === 'approval:updated' && e.payload.state === 'pending') o.broker.answer(e.payload.id, 'deny', 'window');
  });
  const chat = o.chat('coder');
  chat.send(text);
  await chat.idle();
  await o.shutdown();
  return { o, items: chat.transcript.all() };
}

// Each case is a chain of CLI runs and chat starts (a node process and a Codex each): 60 s on an idle
// machine, 102 s seen with two busy loops beside it; the bound is the chain's, as for verify and profiles.
describe('the accepted table', { timeout: 300_000 }, () => {
  it('takes the table on the first run; an edit waits and the agent runs on the accepted copy until accepted', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths, outside } = inst;
    const original = await readFile(paths.tableFile, 'utf8');
    const target = join(outside, 'x.txt');

    // First run: the table is taken as it stands (mode 600); nothing differs.
    inst.model.enqueue({ message: 'hi' });
    const first = await turn(inst, 'hello');
    expect(first.items.find((it) => it.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(original);
    expect(statSync(paths.acceptedTable).mode & 0o777).toBe(0o600);
    expect((await first.o.tableChanges()).differs).toBe(false);
    expect(await accept(inst, '--check')).toMatchObject({ code: 0, stdout: expect.stringContaining('no changes') });

    // Someone edits the table on disk to give the agent a folder outside and a shorter timeout.
    await writeFile(
      paths.tableFile,
      stringify({
        defaults: { permission_timeout_minutes: 5 },
        profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'default', add_dirs: [outside] } },
      }),
    );
    const cmd = { exec: { cmd: `echo hi > ${target}`, login: false } };
    inst.model.enqueue(cmd, { message: 'tried' });
    const waiting = await turn(inst, 'write outside');
    expect(waiting.items.find((it) => it.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(existsSync(target)).toBe(false);
    // What the sandboxed command printed went back to the model as the tool output.
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toMatch(/x\.txt: (Read-only file system|No such file or directory)/);
    expect(waiting.o.profileViews()[0]?.addDirs).toEqual([]);
    const changes = await waiting.o.tableChanges();
    expect(changes.differs).toBe(true);

    const check = await accept(inst, '--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('2 changes not accepted yet:\n');
    expect(check.stdout).toContain('  defaults.permission_timeout_minutes: 10 → 5\n');
    expect(check.stdout).toContain(`  profiles.coder.add_dirs: + ${JSON.stringify(outside)}\n`);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(original);
    const json = JSON.parse((await accept(inst, '--check', '--json')).stdout) as {
      differs: boolean;
      changes: Array<{ path: string; change: string }>;
      taken: boolean;
    };
    expect(json).toMatchObject({ differs: true, taken: false });
    expect(json.changes.map((c) => [c.path, c.change])).toEqual([
      ['defaults.permission_timeout_minutes', 'changed'],
      ['profiles.coder.add_dirs', 'item-added'],
    ]);

    // The owner accepts it: the copy is replaced atomically, the old one kept.
    const taken = await accept(inst);
    expect(taken.code).toBe(0);
    expect(taken.stdout).toContain(`profiles.coder.add_dirs: + ${JSON.stringify(outside)}`);
    expect(await readFile(`${paths.acceptedTable}.bak`, 'utf8')).toBe(original);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(await readFile(paths.tableFile, 'utf8'));
    expect(await accept(inst, '--check')).toMatchObject({ code: 0 });
    // A folder to write is a loosening: it waits for the profile's compile (the launch guard records the
    // folders compiled), and a start before it is refused with that fix; nothing is sent to Codex.
    const early = await turn(inst, 'write outside now');
    expect(early.items.find((it) => it.type === 'error')).toMatchObject({
      kind: 'refused',
      message: `This chat's agent was not started: the accepted table now lets this profile write 1 folder(s) the last compile did not (${outside}); that takes effect when you compile again. Fix: angelia compile --write coder`,
    });
    expect(existsSync(target)).toBe(false);
    expect(await command(inst, 'compile', 'compile', ['--write', 'coder'])).toMatchObject({ code: 0 });
    inst.model.enqueue(cmd, { message: 'written' });
    const after = await turn(inst, 'write outside again');
    expect(
      after.items.find((it) => it.type === 'turnEnd'),
      JSON.stringify(after.items),
    ).toMatchObject({ status: 'completed' });
    expect(after.o.profileViews()[0]?.addDirs).toEqual([outside]);
    expect(existsSync(target), JSON.stringify(after.items)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('hi\n');
  });

  it('a profile compiled in plan mode (read-only) and then accepted in default mode may write only after its compile', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'plan' } });
    const { paths } = inst;
    const target = join(inst.cwd.coder!, 'from-agent.txt');
    const cmd = { exec: { cmd: `echo hi > ${target}`, login: false } };
    inst.model.enqueue(cmd, { message: 'tried' });
    const first = await turn(inst, 'write here');
    expect(
      first.items.find((it) => it.type === 'turnEnd'),
      JSON.stringify(first.items),
    ).toMatchObject({ status: 'completed' });
    expect(existsSync(target)).toBe(false);

    // The table now says default (the folder writable), and it is accepted, but not compiled yet.
    const text = await readFile(paths.tableFile, 'utf8');
    expect(text).toMatch(/permission_mode = "plan"/);
    await writeFile(paths.tableFile, text.replace(/permission_mode = "plan"/, 'permission_mode = "default"'));
    expect((await accept(inst)).code).toBe(0);
    const early = await turn(inst, 'write here now');
    expect(early.items.find((it) => it.type === 'error')).toMatchObject({
      kind: 'refused',
      message:
        "This chat's agent was not started: permission_mode is now default, but the last compile was in plan mode (read-only); the profile may write its folder only after you compile again. Fix: angelia compile --write coder",
    });
    expect(existsSync(target)).toBe(false);

    expect(await command(inst, 'compile', 'compile', ['--write', 'coder'])).toMatchObject({ code: 0 });
    inst.model.enqueue(cmd, { message: 'written' });
    const after = await turn(inst, 'write here again');
    expect(
      after.items.find((it) => it.type === 'turnEnd'),
      JSON.stringify(after.items),
    ).toMatchObject({ status: 'completed' });
    expect(await readFile(target, 'utf8')).toBe('hi\n');
  });

  it('refuses a table that does not load, naming its path, field and fix, and keeps the accepted copy', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths } = inst;
    expect((await accept(inst)).code).toBe(0);
    const good = await readFile(paths.acceptedTable, 'utf8');
    await writeFile(paths.tableFile, `${good}sanbox = false\n`);

    const check = await accept(inst, '--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('profiles.coder.sanbox: added false');
    expect(check.stderr).toContain(`at: ${paths.tableFile}: profiles.coder.sanbox`);

    const r = await accept(inst);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the table was not accepted');
    expect(r.stderr).toContain(`at: ${paths.tableFile}: profiles.coder.sanbox`);
    expect(r.stderr).toMatch(/fix: did you mean "sandbox"\?/);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(good);

    const j = JSON.parse((await accept(inst, '--json')).stdout) as { taken: boolean; error: { code: string; where: string } };
    expect(j).toMatchObject({ taken: false, error: { code: 'table-invalid', where: `${paths.tableFile}: profiles.coder.sanbox` } });
    expect(await accept(inst, '--bogus')).toMatchObject({ code: 2 });
  });
});
