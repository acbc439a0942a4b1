/**
 * Angelia's own program runs outside the sandbox (every `angelia` command, the app, the agents'
 * `angelia` launcher), so the grant check refuses a profile that could write it — on the real
 * filesystem, with the real install this test runs from (instance/program.ts `angeliaProgram`).
 * An attack found it: a profile whose folder held the install appended code to `bin/angelia.js`, and
 * the user's next `angelia run` read `~/.ssh` and wrote into `<state>/compiled` with full access.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { angeliaProgram } from '../../../src/main/core/instance/program';
import { checkGrants, execAtCompile, type GrantFacts } from '../../../src/main/core/compile/grants';
import { liveFs } from '../../../src/main/core/compile/pathWalk';
import { keyPath } from '../../../src/main/core/table/errors';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../instance/testDir';
import { profile, tableOf } from './fixture';

let root = '';
let facts: GrantFacts;

beforeAll(async () => {
  root = await makeTestDir('grants-program');
  facts = {
    home: join(root, 'home'),
    stateDir: join(root, 'home', '.angelia'),
    workspace: join(root, 'home', '.angelia', 'workspace'),
    codexHome: join(root, 'home', '.codex'),
    platform: 'linux',
  };
  for (const d of ['coder', 'writer']) await mkdir(join(facts.workspace, 'profiles', d), { recursive: true });
});
afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe("Angelia's own program is never in an agent's reach", () => {
  it('names Node and the install folder of the running Angelia', () => {
    expect(angeliaProgram()).toEqual([process.execPath, ...['bin', 'out', 'node_modules', 'package.json'].map((n) => join(REPO_ROOT, n))]);
  });

  it('a profile beside the install is fine', () => {
    const table = tableOf(profile('coder', { cwd: join(facts.workspace, 'profiles', 'coder') }));
    expect(checkGrants(table, facts, liveFs, { exec: (p) => execAtCompile(p, facts) }).filter((p) => !p.note)).toEqual([]);
  });

  it("another profile given the install's bin/ to write: every profile's start is refused, naming the program and the fix", () => {
    const table = tableOf(
      profile('coder', { cwd: join(facts.workspace, 'profiles', 'coder') }),
      profile('writer', { cwd: join(facts.workspace, 'profiles', 'writer'), addDirs: [join(REPO_ROOT, 'bin')] }),
    );
    const problems = checkGrants(table, facts, liveFs, { profiles: ['coder'], exec: (p) => execAtCompile(p, facts) }).filter((p) => !p.note);
    expect(problems.map((p) => keyPath(p.key))).toEqual(['profiles.coder']);
    expect(problems[0]!.message).toBe(
      `Angelia's own program ${join(REPO_ROOT, 'bin')} lies in ${join(REPO_ROOT, 'bin')}, which profile writer's add_dir (profiles.writer.add_dirs[0]) can write; it runs outside the sandbox (every angelia command, the app, the agents' angelia command), so an agent could replace it and have its own code run with your full access`,
    );
    expect(problems[0]!.fix).toBe(`install Angelia where no agent can write, or stop granting ${join(REPO_ROOT, 'bin')}`);
  });
});
