/**
 * The folder against HEAD runs git in the profile's own read-only sandbox (real codex 0.169.0,
 * chats/turnDiff/headSandbox.ts): a repository config that gets past the refusal check (written between
 * the check and the run, as an agent racing it could) acts only inside the sandbox. A clean filter runs
 * (its line shows in the diff) but cannot read Angelia's private state nor write outside the profile's
 * folder or in it; an `include.path` to a file outside the profile's reach is not read. The same git on
 * the host does both (the control). A profile with `sandbox = false` and one a start would refuse get no
 * HEAD view, with the reason.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitEnv, gitRunner, headDiff, type CommandRunner } from '../../src/main/core/chats/turnDiff/head';
import { headDiffInSandbox } from '../../src/main/core/chats/turnDiff/headSandbox';
import { guardPath } from '../../src/main/core/compile/guardFile';
import { profileSandbox } from '../../src/main/core/launch/sandboxRun';
import { loadAccepted } from '../../src/main/core/table/accepted';
import type { LoadedTable } from '../../src/main/core/table/load';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance;
let cwd = '';
let table: LoadedTable;
const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

beforeAll(async () => {
  inst = await makeInstance({ coder: {}, open: { sandbox: false }, other: {} }, { privateHome: true });
  cwd = inst.cwd.coder ?? '';
  git('init', '-q');
  writeFileSync(join(cwd, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'init');
  writeFileSync(join(cwd, 'a.txt'), 'one\ntwo\n');
  table = (await loadAccepted(inst.paths, { home: inst.paths.home, env: inst.env })).table;
});

afterAll(async () => {
  await inst?.cleanup();
});

/** `run`, with `swap` done right after the config check (`git config --list`) ran: the check sees a clean config. */
function racing(run: CommandRunner, swap: () => void): CommandRunner {
  return async (command, limits) => {
    const r = await run(command, limits);
    if (command.includes('config') && command.includes('--list')) swap();
    return r;
  };
}

/** The folder against HEAD as headSandbox.ts computes it, with `swap` done between the check and the diff. */
async function raced(swap: () => void) {
  const sandbox = await profileSandbox({ paths: inst.paths, table, profile: 'coder', env: inst.env, readOnly: true, envFor: gitEnv });
  if (!sandbox.run) throw new Error('coder is sandboxed');
  return headDiff(cwd, gitRunner(racing(sandbox.run, swap)));
}

describe('git against HEAD in the profile sandbox (real codex)', () => {
  it('a clean filter slipped in after the check runs in the sandbox: no private read, no write anywhere', async () => {
    const outsideMark = join(inst.outside, 'filter-wrote');
    const folderMark = join(cwd, 'filter-wrote');
    writeFileSync(join(cwd, '.gitattributes'), 'a.txt filter=evil\n');
    const filter = `echo FILTER-RAN; cat '${inst.secret}' 2>/dev/null; touch '${outsideMark}' '${folderMark}' 2>/dev/null; cat`;
    const view = await raced(() => git('config', 'filter.evil.clean', filter));
    expect(view).toMatchObject({ state: 'ok', root: cwd, untracked: expect.arrayContaining(['.gitattributes']) });
    const patch = view.state === 'ok' ? view.files.map((f) => f.patch).join('') : '';
    expect(patch).toContain('+FILTER-RAN');
    expect(patch).toContain('+two');
    expect(patch).not.toContain('do-not-read');
    expect(existsSync(outsideMark)).toBe(false);
    expect(existsSync(folderMark)).toBe(false);
    // The control: the same git on the host runs the filter with Angelia's reach.
    execFileSync('git', ['diff', 'HEAD', '--no-ext-diff', '--no-textconv'], { cwd, env: gitEnv(inst.env), encoding: 'utf8' });
    expect(existsSync(outsideMark)).toBe(true);
    git('config', '--remove-section', 'filter.evil');
    rmSync(outsideMark, { force: true });
    rmSync(folderMark, { force: true });
  });

  it('an include.path outside the profile reach slipped in after the check is not read in the sandbox', async () => {
    const outsideMark = join(inst.outside, 'include-wrote');
    const included = join(inst.outside, 'evil.gitconfig');
    writeFileSync(included, `[filter "inc"]\n\tclean = "echo INCLUDED-RAN; touch '${outsideMark}'; cat"\n`);
    writeFileSync(join(cwd, '.gitattributes'), 'a.txt filter=inc\n');
    const view = await raced(() => git('config', 'include.path', included));
    expect(view).toMatchObject({ state: 'ok', root: cwd, totals: { files: 1, added: 1, removed: 0 } });
    const patch = view.state === 'ok' ? view.files.map((f) => f.patch).join('') : '';
    expect(patch).not.toContain('INCLUDED-RAN');
    expect(existsSync(outsideMark)).toBe(false);
    // The control: git on the host reads the included file and runs its filter.
    execFileSync('git', ['diff', 'HEAD', '--no-ext-diff', '--no-textconv'], { cwd, env: gitEnv(inst.env), encoding: 'utf8' });
    expect(existsSync(outsideMark)).toBe(true);
    git('config', '--unset', 'include.path');
  });

  it('a profile without a sandbox, or one a start would refuse, gets no HEAD view and the reason', async () => {
    const open = await headDiffInSandbox({ paths: inst.paths, table, profile: 'open', env: inst.env });
    expect(open).toMatchObject({ state: 'unavailable', folder: inst.cwd.open, message: expect.stringMatching(/sandbox = false/) });
    rmSync(guardPath(inst.paths.stateDir, 'other'));
    const other = await headDiffInSandbox({ paths: inst.paths, table, profile: 'other', env: inst.env });
    expect(other).toMatchObject({ state: 'unavailable', folder: inst.cwd.other, message: expect.stringMatching(/would be refused/) });
  });
});
