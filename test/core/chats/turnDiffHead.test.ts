/**
 * A chat's folder against git's HEAD (core/chats/turnDiff/head.ts): what each git outcome becomes (a
 * scripted runner), which repository config is refused, the environment git gets, and real git on a test
 * folder (a change, an untracked file, a repository that names a filter driver, no repository, no git).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitEnv, gitRunner, headDiff, unsafeKeys, type CommandRunner, type GitResult, type GitRunner } from '../../../src/main/core/chats/turnDiff/head';
import { runBounded } from '../../../src/main/core/launch/sandboxRun';
import { makeTestDir, removeTestDir } from '../instance/testDir';

const ok = (stdout: string): GitResult => ({ code: 0, stdout, stderr: '', missing: false, timedOut: false, cut: false });
const fail = (stderr: string, code = 128): GitResult => ({ code, stdout: '', stderr, missing: false, timedOut: false, cut: false });

/** A runner answering by the git subcommand (first argument). */
function scripted(answers: Record<string, GitResult>): GitRunner {
  return async (args) => answers[args[0] ?? ''] ?? ok('');
}

const DIFF = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n';

describe('headDiff: each outcome', () => {
  const cases: Array<[string, Record<string, GitResult>, object]> = [
    ['no repository', { 'rev-parse': fail('fatal: not a git repository (or any of the parent directories): .git') }, { state: 'not-a-repo' }],
    [
      'git missing',
      { 'rev-parse': { ...fail(''), code: null, missing: true } },
      { state: 'unavailable', message: expect.stringMatching(/git was not found on PATH/) },
    ],
    ['git too slow', { 'rev-parse': { ...fail(''), code: null, timedOut: true } }, { state: 'unavailable', message: expect.stringMatching(/took too long/) }],
    [
      'a filter driver in the repository config',
      { 'rev-parse': ok('/r\n'), config: ok('global\0user.name\nme\0local\0filter.lfs.clean\ngit-lfs clean -- %f\0') },
      { state: 'unavailable', message: expect.stringMatching(/own config sets filter\.lfs\.clean/) },
    ],
    [
      'no commit yet',
      { 'rev-parse': ok('/r\n'), config: ok(''), diff: fail("fatal: ambiguous argument 'HEAD': unknown revision or path not in the working tree.") },
      { state: 'unavailable', message: expect.stringMatching(/no commit yet/) },
    ],
    [
      'a diff and untracked files',
      { 'rev-parse': ok('/r\n'), config: ok(''), diff: ok(DIFF), 'ls-files': ok('n1.txt\0dir/n2.txt\0') },
      { state: 'ok', root: '/r', totals: { files: 1, added: 1, removed: 1 }, untracked: ['n1.txt', 'dir/n2.txt'], untrackedMore: 0, clipped: false },
    ],
    [
      'a diff over the bound',
      { 'rev-parse': ok('/r\n'), config: ok(''), diff: { ...ok(DIFF), code: null, cut: true }, 'ls-files': ok('') },
      { state: 'ok', clipped: true, files: [{ path: 'a.txt', patch: '' }], note: expect.stringMatching(/over 8\.0 MiB/) },
    ],
  ];
  it.each(cases)('%s', async (_name, answers, want) => {
    expect(await headDiff('/r/sub', scripted(answers))).toMatchObject(want);
  });
});

describe('unsafeKeys', () => {
  const cases: Array<[string, string[]]> = [
    ['system\0filter.lfs.clean\nx\0global\0filter.lfs.process\ny\0', []],
    [
      'local\0filter.evil.clean\nsh\0worktree\0include.path\n../x\0local\0includeIf.gitdir:/x.path\ny\0',
      ['filter.evil.clean', 'include.path', 'includeIf.gitdir:/x.path'],
    ],
    ['local\0core.fsmonitor\ntrue\0local\0diff.x.textconv\ncat\0local\0core.bare\0', []],
  ];
  it.each(cases)('%j', (listing, want) => {
    expect(unsafeKeys(listing)).toEqual(want);
  });
});

describe('gitEnv', () => {
  it("drops Angelia's GIT_* variables but the ceiling, and never prompts or writes the index", () => {
    const env = gitEnv({ PATH: '/bin', GIT_DIR: '/elsewhere', GIT_EXTERNAL_DIFF: 'evil', GIT_CEILING_DIRECTORIES: '/c' });
    expect(env).toMatchObject({ PATH: '/bin', GIT_CEILING_DIRECTORIES: '/c', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
  });
});

describe('headDiff with real git', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await removeTestDir(dir);
  });
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
  /** Git in the test folder sees no repository above it (the test folders lie inside this repository). */
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) });
  /** Git on this machine with `gitEnv(e)` (Angelia runs it in the profile's sandbox: test/integration/turn-diff.test.ts). */
  const onHost =
    (e: NodeJS.ProcessEnv): CommandRunner =>
    ([bin = '', ...args], limits) =>
      runBounded(bin, args, { ...limits, env: gitEnv(e) });

  it('shows a change against HEAD and the untracked files; a repository naming a filter is refused', async () => {
    dir = await makeTestDir('head-diff');
    git(dir, 'init', '-q');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'outside.txt'), 'x\n');
    writeFileSync(join(dir, 'sub', 'a.txt'), 'one\ntwo\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'init');
    writeFileSync(join(dir, 'outside.txt'), 'y\n');
    writeFileSync(join(dir, 'sub', 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(dir, 'sub', 'new.txt'), 'new\n');
    writeFileSync(join(dir, 'untracked-outside.txt'), 'z\n');
    // The profile's folder is `sub`: only what lies in it, named from the repository's top.
    const view = await headDiff(join(dir, 'sub'), gitRunner(onHost(env())));
    expect(view).toMatchObject({ state: 'ok', root: dir, untracked: ['sub/new.txt'], totals: { files: 1, added: 2, removed: 1 } });
    if (view.state === 'ok') expect(view.files.map((f) => [f.path, f.patch.includes('+TWO\n+three\n')])).toEqual([['sub/a.txt', true]]);
    git(dir, 'config', 'filter.evil.clean', `touch ${join(dir, 'ran')}`);
    expect(await headDiff(dir, gitRunner(onHost(env())))).toMatchObject({ state: 'unavailable', message: expect.stringMatching(/filter\.evil\.clean/) });
  });

  it('says "not a repository" outside any, and names git when it is missing', async () => {
    dir = await makeTestDir('head-diff');
    expect(await headDiff(dir, gitRunner(onHost(env())))).toEqual({ state: 'not-a-repo', folder: dir });
    expect(await headDiff(dir, gitRunner(onHost({ ...env(), PATH: join(dir, 'nothing') })))).toMatchObject({
      state: 'unavailable',
      message: expect.stringMatching(/git was not found/),
    });
  });
});
