/**
 * The one rule for runtime grants (approvals/privateReach.ts): what no permissions grant may open,
 * on real folders with real symbolic links (under `<repo>/.angelia-test/`).
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_HOME_WHY, STATE_WHY, grantFloor, privateReach, splitRequested, type GrantFloor } from '../../../src/main/core/approvals/privateReach';
import { compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import type { CompileFacts } from '../../../src/main/core/compile/facts';
import { makeTestDir, removeTestDir } from '../instance/testDir';
import { profile, tableOf } from '../compile/fixture';

let root = '';
let home = '';
let state = '';
let codexHome = '';
let cwd = '';
let other = '';
let outside = '';
let floor: GrantFloor;

beforeAll(async () => {
  root = await makeTestDir('private-reach');
  home = join(root, 'home');
  state = join(home, '.angelia');
  codexHome = join(root, 'codex-home');
  cwd = join(state, 'workspace', 'profiles', 'coder');
  other = join(state, 'workspace', 'profiles', 'writer');
  outside = join(root, 'outside');
  for (const d of [cwd, other, outside, join(home, '.ssh'), join(home, '.codex'), codexHome, join(state, 'bin')]) await mkdir(d, { recursive: true });
  await writeFile(join(state, 'api.token'), 'token');
  // Links an agent could make in its own folder: to the state folder, to a token, to the workspace.
  await symlink(state, join(cwd, 'to-state'));
  await symlink(join(state, 'api.token'), join(outside, 'token-link'));
  await symlink(join(state, 'workspace'), join(outside, 'ws-link'));
  await symlink(join(outside, 'loop-b'), join(outside, 'loop-a'));
  await symlink(join(outside, 'loop-a'), join(outside, 'loop-b'));
  const table = tableOf(profile('coder', { cwd, permissionMode: 'default' }), profile('writer', { cwd: other }));
  const facts: CompileFacts = { home, stateDir: state, workspace: join(state, 'workspace'), codexHome, apiSocket: null, platform: 'linux' };
  const launch = compileCodexLaunch(table, 'coder', facts);
  floor = grantFloor({ stateDir: state, home, codexHome, cwd, platform: 'linux', filesystem: launch.filesystem, sources: launch.sources });
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

const read = (p: string): string | null => privateReach(p, 'read', floor);
const write = (p: string): string | null => privateReach(p, 'write', floor);

describe("privateReach: Angelia's state folder", () => {
  it('refuses the state folder itself and anything inside it but workspace/', () => {
    expect(read(state)).toBe(STATE_WHY);
    expect(read(join(state, 'api.token'))).toBe(STATE_WHY);
    expect(read(join(state, 'sessions.json'))).toBe(STATE_WHY);
    expect(write(join(state, 'private', 'new-file'))).toBe(STATE_WHY);
    expect(write(join(state, 'bin'))).toBe(STATE_WHY);
    expect(read(join(state, 'cache', 'codex'))).toBe(STATE_WHY);
  });

  it('refuses a folder that holds it: /, $HOME, the parent of the state folder', () => {
    expect(read('/')).toBe(`it holds ${state} (${STATE_WHY})`);
    expect(read(home)).toBe(`it holds ${state} (${STATE_WHY})`);
    expect(write(root)).toMatch(/^it holds /);
  });

  it('allows workspace/ paths, but not the workspace whole (it holds other profiles\' folders)', () => {
    expect(read(join(state, 'workspace', '_common', 'notes'))).toBeNull();
    expect(write(join(cwd, 'src'))).toBeNull();
    expect(read(join(state, 'workspace'))).toBe(`it holds ${other} (profile writer's folder)`);
  });

  it("refuses another profile's folder and what lies in it", () => {
    expect(read(other)).toBe("profile writer's folder");
    expect(write(join(other, 'draft.md'))).toBe("profile writer's folder");
  });

  it('folds .. segments before comparing', () => {
    expect(read(join(cwd, '..', '..', '..', 'api.token'))).toBe(STATE_WHY);
    expect(read(`${outside}/../home/.angelia/workspace/../env`)).toBe(STATE_WHY);
    expect(read(`${state}/bin/../workspace/_shared`)).toBeNull();
  });

  it('resolves ~ against home and a relative path against the base folder', () => {
    expect(read('~/.angelia/api.token')).toBe(STATE_WHY);
    expect(read('~')).toMatch(/^it holds /);
    expect(read('../../../api.token')).toBe(STATE_WHY);
    expect(read('notes')).toBeNull();
    expect(privateReach('api.token', 'read', floor, state)).toBe(STATE_WHY);
  });

  it('follows symbolic links of existing prefixes: a link to the state folder or a token is refused', () => {
    expect(read(join(cwd, 'to-state'))).toBe(STATE_WHY);
    expect(read(join(cwd, 'to-state', 'sessions.json'))).toBe(STATE_WHY);
    expect(read(join(outside, 'token-link'))).toBe(STATE_WHY);
    // ".." after a link applies to the link's target folder, as the kernel does.
    expect(read(`${cwd}/to-state/workspace/../env`)).toBe(STATE_WHY);
    // A link into workspace/ lands where the link points: allowed there, refused beside it.
    expect(read(join(outside, 'ws-link', '_shared'))).toBeNull();
    expect(read(`${outside}/ws-link/../api.token`)).toBe(STATE_WHY);
    // Lexically that path is outside/api.token: only the link's target says where it lands.
    expect(read(join(outside, 'api.token'))).toBeNull();
    expect(read(join(outside, 'loop-a', 'x'))).toBe('a chain of symbolic links Angelia cannot follow');
  });

  it('compares against the real path of a state folder reached through a link', async () => {
    const alias = join(root, 'state-alias');
    await symlink(state, alias);
    const viaAlias = grantFloor({ stateDir: alias, home, codexHome, cwd, platform: 'linux' });
    expect(privateReach(join(state, 'env'), 'read', viaAlias)).toBe(STATE_WHY);
    expect(privateReach(join(alias, 'env'), 'read', viaAlias)).toBe(STATE_WHY);
    expect(privateReach(join(state, 'workspace', 'x'), 'read', viaAlias)).toBeNull();
  });
});

describe('privateReach: Codex homes, credentials, read-only entries, patterns, special paths', () => {
  it('refuses CODEX_HOME and ~/.codex whole, readable entries included', () => {
    expect(read(codexHome)).toBe(CODEX_HOME_WHY);
    expect(read(join(codexHome, 'skills', 'x'))).toBe(CODEX_HOME_WHY);
    expect(write(join(codexHome, 'AGENTS.md'))).toBe(CODEX_HOME_WHY);
    expect(read(join(home, '.codex', 'sessions'))).toBe(CODEX_HOME_WHY);
  });

  it('refuses the credential floor', () => {
    expect(read(join(home, '.ssh', 'id_rsa'))).toBe('credential location');
    expect(write(join(home, '.netrc'))).toBe('credential location');
    expect(read(join(home, '.config'))).toBe(`it holds ${join(home, '.config', 'gh')} (credential location)`);
    expect(read(join(home, '.claude', 'projects', 'x'))).toBe("another CLI's transcripts or config");
  });

  it("never grants a write on or inside a read-only entry of the profile; reading it stays grantable", () => {
    expect(write(join(cwd, '.codex', 'config.toml'))).toBe('kept read-only: launch file (Codex project config, hooks and rules)');
    expect(write(join(state, 'workspace', '_shared'))).toMatch(/^kept read-only: shared doctrine/);
    expect(read(join(cwd, '.codex', 'config.toml'))).toBeNull();
    // The profile's own folder holds read-only entries but is no write into them.
    expect(write(cwd)).toBeNull();
  });

  it('refuses a pattern whose folder is, holds or lies in a closed place', () => {
    expect(read(`${state}/*`)).toBe(STATE_WHY);
    expect(read(`${home}/.ang*`)).toMatch(/^it holds /);
    expect(read(`${outside}/**/*.txt`)).toBeNull();
    expect(write(`${cwd}/**`)).toMatch(/^it holds .*kept read-only/);
  });

  it('places special paths; one it cannot place is refused', () => {
    expect(read(':root')).toBe(`it holds ${state} (${STATE_WHY})`);
    expect(read(':project_roots/docs')).toBeNull();
    expect(read(':project_roots/../../../api.token')).toBe(STATE_WHY);
    expect(read(':minimal')).toBe('a special location (:minimal) Angelia cannot check');
    expect(read(':future_kind')).toMatch(/cannot check/);
  });

  it('leaves other paths alone', () => {
    expect(read(outside)).toBeNull();
    expect(write(join(outside, 'reports'))).toBeNull();
    expect(write('/nonexistent/elsewhere')).toBeNull();
  });
});

describe('splitRequested', () => {
  it('keeps the grantable part (and network), lists the rest with the reason', () => {
    const asked = { read: [state, join(outside, 'in')], write: [join(outside, 'out'), join(codexHome, 'rules')], network: true };
    expect(splitRequested(asked, floor)).toEqual({
      grantable: { read: [join(outside, 'in')], write: [join(outside, 'out')], network: true },
      refused: [{ access: 'write', path: join(codexHome, 'rules'), why: CODEX_HOME_WHY }, { access: 'read', path: state, why: STATE_WHY }],
    });
  });

  it('nothing grantable left → grantable null; nothing asked → nothing refused', () => {
    expect(splitRequested({ read: [join(state, 'api.token')], write: [], network: false }, floor)).toEqual({
      grantable: null, refused: [{ access: 'read', path: join(state, 'api.token'), why: STATE_WHY }],
    });
    expect(splitRequested(null, floor)).toEqual({ grantable: null, refused: [] });
  });

  it('relative paths resolve against the base given (the request\'s folder)', () => {
    const base = join(state, 'workspace');
    expect(splitRequested({ read: [relative(base, join(state, 'env'))], write: [], network: false }, floor, base).refused).toHaveLength(1);
  });
});
