/**
 * The one rule for runtime grants (approvals/privateReach.ts): what no permissions grant may open,
 * on real folders with real symbolic links (under `<repo>/.angelia-test/`).
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODEX_HOME_WHY,
  EARLIER_GRANT_WHY,
  SLASH_TMP_WHY,
  STATE_WHY,
  grantFloor,
  grantedPlaces,
  privateReach,
  splitRequested,
  type GrantFloor,
} from '../../../src/main/core/approvals/privateReach';
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
let agentTmp = '';

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
  agentTmp = launch.env.TMPDIR ?? '';
  floor = grantFloor({
    stateDir: state,
    home,
    codexHome,
    cwd,
    platform: 'linux',
    filesystem: launch.filesystem,
    sources: launch.sources,
    writableRoots: launch.writableRoots,
    tmpdir: agentTmp,
  });
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

  it("allows workspace/ paths, but not the workspace whole (it holds other profiles' folders)", () => {
    expect(read(join(state, 'workspace', 'reports', 'notes'))).toBeNull();
    expect(write(join(state, 'workspace', 'reports'))).toBeNull();
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
    expect(privateReach('notes', 'read', floor, outside)).toBeNull();
    expect(privateReach('api.token', 'read', floor, state)).toBe(STATE_WHY);
  });

  it('follows symbolic links of existing prefixes: a link to the state folder or a token is refused', () => {
    expect(read(join(cwd, 'to-state'))).toBe(STATE_WHY);
    expect(read(join(cwd, 'to-state', 'sessions.json'))).toBe(STATE_WHY);
    expect(read(join(outside, 'token-link'))).toBe(STATE_WHY);
    // ".." after a link applies to the link's target folder, as the kernel does.
    expect(read(`${cwd}/to-state/workspace/../env`)).toBe(STATE_WHY);
    // A link into workspace/ lands where the link points: refused beside it as private state, and
    // refused there too, because where a link leads can change after the answer.
    expect(read(join(outside, 'ws-link', '_shared'))).toBe(`${join(outside, 'ws-link')} is a symbolic link: where it leads can change after the answer`);
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

  it('never grants a write on or inside a read-only entry of the profile; reading it stays grantable', () => {
    expect(write(join(cwd, '.codex', 'config.toml'))).toBe('kept read-only: launch file (Codex project config, hooks and rules)');
    expect(write(join(state, 'workspace', '_shared'))).toMatch(/^kept read-only: shared doctrine/);
    expect(read(join(outside, '.codex', 'config.toml'))).toBeNull();
    // The profile's own folder holds read-only entries but is no write into them (it is refused as
    // already writable, see below).
    expect(write(cwd)).toMatch(/^already writable, not granted again: /);
  });

  it('refuses a pattern whose folder is, holds or lies in a closed place', () => {
    expect(read(`${state}/*`)).toBe(STATE_WHY);
    expect(read(`${home}/.ang*`)).toMatch(/^it holds /);
    expect(read(`${outside}/**/*.txt`)).toBeNull();
    expect(write(`${cwd}/**`)).toMatch(/^it holds .*kept read-only/);
  });

  it('places special paths; one it cannot place is refused', () => {
    expect(read(':root')).toBe(`it holds ${state} (${STATE_WHY})`);
    expect(read(':project_roots/docs')).toMatch(/^already writable, not granted again: it lies in /);
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
      refused: [
        { access: 'write', path: join(codexHome, 'rules'), why: CODEX_HOME_WHY },
        { access: 'read', path: state, why: STATE_WHY },
      ],
    });
  });

  it('nothing grantable left → grantable null; nothing asked → nothing refused', () => {
    expect(splitRequested({ read: [join(state, 'api.token')], write: [], network: false }, floor)).toEqual({
      grantable: null,
      refused: [{ access: 'read', path: join(state, 'api.token'), why: STATE_WHY }],
    });
    expect(splitRequested(null, floor)).toEqual({ grantable: null, refused: [] });
  });

  it("relative paths resolve against the base given (the request's folder)", () => {
    const base = join(state, 'workspace');
    expect(splitRequested({ read: [relative(base, join(state, 'env'))], write: [], network: false }, floor, base).refused).toHaveLength(1);
  });
});

// A grant is re-resolved by Codex at each later command (bubblewrap bind-mounts follow links): a path
// the agent can replace with a symbolic link after the answer would open wherever the link leads.
describe('privateReach: paths the agent could swap for a symbolic link', () => {
  const already = (place: string, why: string): string => `already writable, not granted again: it lies in ${place} (${why})`;

  it("refuses a missing path in the agent's folder (the cache-dir exploit), for write and read, as already writable", () => {
    expect(write(join(cwd, 'cache-dir'))).toBe(already(cwd, "the profile's folder"));
    expect(read(join(cwd, 'cache-dir', 'deeper', 'file'))).toBe(already(cwd, "the profile's folder"));
    expect(splitRequested({ read: [], write: [join(cwd, 'cache-dir')], network: false }, floor)).toEqual({
      grantable: null,
      refused: [{ access: 'write', path: join(cwd, 'cache-dir'), why: already(cwd, "the profile's folder"), already: true }],
    });
  });

  it("refuses an existing path in the agent's folder, in its other write entries, and in Codex's TMPDIR", async () => {
    await mkdir(join(cwd, 'src'), { recursive: true });
    expect(read(join(cwd, 'src'))).toBe(already(cwd, "the profile's folder"));
    expect(write(cwd)).toBe(already(cwd, "the profile's folder"));
    // The shared `_common` folder is a write entry of every profile.
    const common = join(state, 'workspace', '_common');
    expect(read(join(common, 'notes'))).toMatch(new RegExp(`^already writable, not granted again: it lies in ${common} \\(`));
    // The agent's TMPDIR (`:tmpdir`): in its cache here, so refused first as private state; when it
    // lies elsewhere, as already writable.
    expect(agentTmp).toMatch(/\/tmp$/);
    expect(write(join(agentTmp, 'build'))).toBe(STATE_WHY);
    const elsewhere = join(outside, 'agent-tmp');
    const withTmp = grantFloor({ stateDir: state, home, codexHome, cwd, platform: 'linux', tmpdir: elsewhere });
    expect(privateReach(join(elsewhere, 'build'), 'write', withTmp)).toBe(already(elsewhere, "the agent's temporary folder (TMPDIR)"));
    expect(privateReach(':tmpdir/x', 'read', withTmp)).toBe(already(elsewhere, "the agent's temporary folder (TMPDIR)"));
  });

  it('refuses /tmp (and :slash_tmp): other programs write there, so a link can redirect the grant', () => {
    const why = `it lies in /tmp (${SLASH_TMP_WHY}), where a symbolic link could redirect the grant`;
    expect(read('/tmp/report')).toBe(why);
    expect(write('/tmp/new-dir/x')).toBe(why);
    expect(read(':slash_tmp')).toBe(why);
    const { refused } = splitRequested({ read: ['/tmp/report'], write: [], network: false }, floor);
    expect(refused).toEqual([{ access: 'read', path: '/tmp/report', why }]);
    // A pattern over /tmp matches what lies in it; one over the profile's folder's parent does too.
    expect(read('/tmp/rep*')).toBe(why);
    expect(read(`${outside}/../home/.angelia/workspace/profiles/co*`)).toMatch(/^it holds /);
    expect(read(`${root}/outside/*`)).toBeNull();
  });

  it('refuses a path under an earlier write grant of the chat while it lasts; a legitimate outside folder stays grantable', () => {
    const shared = join(outside, 'shared');
    expect(write(shared)).toBeNull();
    const earlier = grantedPlaces({ read: [], write: [shared], network: false }, floor);
    expect(earlier).toEqual([{ path: shared, why: EARLIER_GRANT_WHY, own: true }]);
    expect(privateReach(join(shared, 'sub'), 'read', floor, cwd, earlier)).toBe(already(shared, EARLIER_GRANT_WHY));
    expect(privateReach(shared, 'write', floor, cwd, earlier)).toBe(already(shared, EARLIER_GRANT_WHY));
    // A pattern over its parent also matches what lies in it.
    expect(privateReach(`${outside}/**/*.md`, 'read', floor, cwd, earlier)).toBe(
      `already writable, not granted again: it matches paths in ${shared} (${EARLIER_GRANT_WHY})`,
    );
    // Beside it, and once the grant is forgotten, the folder is grantable.
    expect(privateReach(join(outside, 'reports'), 'write', floor, cwd, earlier)).toBeNull();
    expect(privateReach(join(shared, 'sub'), 'read', floor, cwd, [])).toBeNull();
    // Patterns and relative names are placed like requests.
    expect(grantedPlaces({ read: [], write: [`${outside}/out/**/*.txt`, 'rel'], network: false }, floor, outside)).toEqual([
      { path: join(outside, 'out'), why: EARLIER_GRANT_WHY, own: true },
      { path: join(outside, 'rel'), why: EARLIER_GRANT_WHY, own: true },
    ]);
  });

  it('refuses a write on a folder that holds a writable place (the agent could swap the place itself)', () => {
    const app = join(outside, 'proj', 'app');
    const elsewhere = grantFloor({ stateDir: state, home, codexHome, cwd: app, platform: 'linux' });
    expect(privateReach(join(outside, 'proj'), 'write', elsewhere)).toBe(`it holds ${app} (the profile's folder), which a symbolic link could then replace`);
    expect(privateReach(join(outside, 'proj'), 'read', elsewhere)).toBeNull();
    const shared = join(outside, 'shared');
    const earlier = grantedPlaces({ read: [], write: [shared], network: false }, floor);
    expect(privateReach(outside, 'write', floor, cwd, earlier)).toBe(`it holds ${shared} (${EARLIER_GRANT_WHY}), which a symbolic link could then replace`);
    // Reading such a folder stays grantable: codex refuses a read-only mount that crosses a writable link.
    expect(privateReach(outside, 'read', floor, cwd, earlier)).toBeNull();
  });

  it('a path inside another path the same request asks to write is covered by it, whatever the order', () => {
    const out = join(outside, 'out');
    const covered = (p: string) => ({ access: 'write' as const, path: p, why: `covered by write ${out}, asked in the same request`, already: true as const });
    expect(splitRequested({ read: [], write: [out, join(out, 'b')], network: false }, floor)).toEqual({
      grantable: { read: [], write: [out], network: false },
      refused: [covered(join(out, 'b'))],
    });
    expect(splitRequested({ read: [], write: [join(out, 'b'), out], network: false }, floor)).toEqual({
      grantable: { read: [], write: [out], network: false },
      refused: [covered(join(out, 'b'))],
    });
    expect(splitRequested({ read: [out, join(out, 'c'), join(outside, 'in')], write: [out], network: false }, floor)).toEqual({
      grantable: { read: [join(outside, 'in')], write: [out], network: false },
      refused: [
        { ...covered(out), access: 'read' },
        { ...covered(join(out, 'c')), access: 'read' },
      ],
    });
    // A write refused for another reason covers nothing.
    expect(splitRequested({ read: [join(cwd, 'x', 'y')], write: [join(cwd, 'x')], network: false }, floor).refused.map((r) => r.why)).toEqual([
      `already writable, not granted again: it lies in ${cwd} (the profile's folder)`,
      `already writable, not granted again: it lies in ${cwd} (the profile's folder)`,
    ]);
  });

  it('refuses a path with a symbolic link anywhere in it, even one leading to a harmless folder', async () => {
    await mkdir(join(outside, 'real', 'docs'), { recursive: true });
    await symlink(join(outside, 'real'), join(outside, 'alias'));
    expect(read(join(outside, 'real', 'docs'))).toBeNull();
    expect(read(join(outside, 'alias', 'docs'))).toBe(`${join(outside, 'alias')} is a symbolic link: where it leads can change after the answer`);
    expect(write(join(outside, 'alias', 'new'))).toMatch(/is a symbolic link/);
    // A link INTO the agent's folder is refused either way (the link, or where it lands).
    await symlink(cwd, join(outside, 'to-cwd'));
    expect(read(join(outside, 'to-cwd', 'x'))).toMatch(/is a symbolic link/);
  });

  it("a grant of a missing name in the agent's folder, made a link to <state> or another profile's folder after the answer, is never given", async () => {
    // Before: the name does not exist; the request is refused already, so there is nothing to redirect.
    const name = join(cwd, 'later-link');
    expect(write(name)).toBe(already(cwd, "the profile's folder"));
    // After the agent made it a link: refused as the closed place it leads to, whatever it was.
    await symlink(join(state, 'private'), name);
    expect(write(name)).toBe(STATE_WHY);
    await rm(name);
    await symlink(other, name);
    expect(read(join(name, 'draft.md'))).toBe("profile writer's folder");
    await rm(name);
  });

  it("without a floor TMPDIR, :tmpdir is Angelia's own", () => {
    const bare = grantFloor({ stateDir: state, home, codexHome, cwd, platform: 'linux' });
    expect(bare.writable.map((w) => w.path)).toEqual([cwd, '/tmp']);
    expect(privateReach(':tmpdir/x', 'read', bare)).toBe(
      tmpdir().startsWith('/tmp') ? `it lies in /tmp (${SLASH_TMP_WHY}), where a symbolic link could redirect the grant` : null,
    );
  });
});
