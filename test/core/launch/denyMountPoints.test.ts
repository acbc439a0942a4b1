/**
 * The deny floor's mount points made before a start (launch/denyMountPoints.ts): which paths, of which
 * kind and mode (a table over the pure `denyMountPoints`), and what `ensureMountPoints` makes on disk:
 * only where the parent folder exists, never over an existing entry, never through a link.
 */
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODEX_FOLDERS, denyMountPoints, EMPTY_MEANS_NONE, ensureMountPoints } from '../../../src/main/core/launch/denyMountPoints';
import { HOME_PRIVATE_DIRS, HOME_PRIVATE_FILES } from '../../../src/main/core/compile/floor';
import { makeTestDir, removeTestDir } from '../instance/testDir';

const paths = { home: '/h', stateDir: '/s', codexHome: '/c' };
const byPath = new Map(denyMountPoints(paths).map((p) => [p.path, p]));

describe('denyMountPoints', () => {
  it.each([
    ['/s/sessions.json', 'file', 0o600],
    ['/s/sessions.json.bak', 'file', 0o600],
    ['/s/children.json', 'file', 0o600],
    ['/s/audit.jsonl', 'file', 0o600],
    ['/s/api.token', 'file', 0o600],
    ['/h/.ssh', 'folder', 0o700],
    ['/h/.aws', 'folder', 0o700],
    ['/h/.config/gh', 'folder', 0o700],
    ['/h/.claude/projects', 'folder', 0o700],
    ['/h/.pi/agent/sessions', 'folder', 0o700],
    ['/h/.netrc', 'file', 0o600],
    ['/h/.bash_history', 'file', 0o600],
    ['/h/.cargo/credentials.toml', 'file', 0o600],
    ['/h/.vault-token', 'file', 0o600],
    ['/h/.codex/sessions', 'folder', 0o700],
    ['/c/history.jsonl', 'file', 0o600],
    ['/c/session_index.jsonl', 'file', 0o600],
    ['/c/sessions', 'folder', 0o700],
    ['/c/archived_sessions', 'folder', 0o700],
    ['/c/memories', 'folder', 0o700],
  ])('makes %s as a %s, mode %o', (path, kind, mode) => {
    // The base: the Codex home a store is in, else home (/h), the state folder (/s) or CODEX_HOME (/c).
    expect(byPath.get(path)).toEqual({ path, base: path.startsWith('/h/.codex/') ? '/h/.codex' : path.slice(0, 2), kind, mode });
  });

  it.each([
    // Files their tool parses, and the user's Codex config: never made.
    '/h/.codex/auth.json',
    '/c/auth.json',
    '/c/config.toml',
    '/h/.claude.json',
    '/h/.m2/settings.xml',
    '/h/.gem/credentials',
    '/h/.pi/agent/auth.json',
    '/h/.grok/auth.json',
    // Not floor entries.
    '/h/.codex',
    '/s/env',
    '/s/private',
  ])('never makes %s', (path) => {
    expect(byPath.has(path)).toBe(false);
  });

  it('covers every floor folder under home and every credential file whose empty content means none', () => {
    for (const rel of HOME_PRIVATE_DIRS) expect(byPath.get(join('/h', rel))?.kind).toBe('folder');
    for (const rel of EMPTY_MEANS_NONE) expect(HOME_PRIVATE_FILES).toContain(rel);
    for (const rel of CODEX_FOLDERS) expect(byPath.get(join('/c', rel))?.kind).toBe('folder');
  });

  it('lists one Codex home once when CODEX_HOME is ~/.codex', () => {
    const points = denyMountPoints({ home: '/h', stateDir: '/s', codexHome: '/h/.codex' });
    expect(points.filter((p) => p.path === '/h/.codex/sessions')).toHaveLength(1);
  });
});

describe('ensureMountPoints', () => {
  let root = '';
  beforeEach(async () => {
    root = await makeTestDir('mountpoints');
  });
  afterEach(async () => {
    await removeTestDir(root);
  });

  it('makes the missing points whose parent is a folder, with their kind and mode, and nothing else', async () => {
    const home = join(root, 'home');
    const state = join(root, 'state');
    const codexHome = join(root, 'codex');
    for (const d of [home, state, codexHome, join(home, '.config')]) await mkdir(d, { recursive: true });
    await ensureMountPoints(denyMountPoints({ home, stateDir: state, codexHome }));

    const ssh = await lstat(join(home, '.ssh'));
    expect(ssh.isDirectory() && (ssh.mode & 0o777) === 0o700).toBe(true);
    expect((await lstat(join(home, '.config', 'gh'))).isDirectory()).toBe(true);
    const netrc = await lstat(join(home, '.netrc'));
    expect(netrc.isFile() && netrc.size === 0 && (netrc.mode & 0o777) === 0o600).toBe(true);
    const legacy = await lstat(join(state, 'sessions.json'));
    expect(legacy.isFile() && legacy.size === 0 && (legacy.mode & 0o777) === 0o600).toBe(true);
    expect((await lstat(join(codexHome, 'sessions'))).isDirectory()).toBe(true);
    // A tool folder that is missing is not started: Codex masks it whole.
    const names = await readdir(home);
    for (const missing of ['.pi', '.grok', '.claude', '.m2', '.cargo', '.codex', '.claude.json']) expect(names).not.toContain(missing);
  });

  it('leaves an existing entry as it is and never writes through a link', async () => {
    const home = join(root, 'home');
    const outside = join(root, 'outside');
    await mkdir(home);
    await mkdir(outside);
    await writeFile(join(home, '.netrc'), 'machine x login y\n');
    await symlink(outside, join(home, '.aws'));
    await symlink(join(outside, 'gone'), join(home, '.bash_history'));
    await symlink(outside, join(home, '.config'));
    await ensureMountPoints(denyMountPoints({ home, stateDir: join(root, 'no-state'), codexHome: join(root, 'no-codex') }));

    expect(await readFile(join(home, '.netrc'), 'utf8')).toBe('machine x login y\n');
    expect((await lstat(join(home, '.aws'))).isSymbolicLink()).toBe(true);
    expect((await lstat(join(home, '.bash_history'))).isSymbolicLink()).toBe(true);
    expect(await readdir(outside)).toEqual([]);
    // Nothing is made where the parent is missing.
    expect(await lstat(join(root, 'no-state')).catch(() => null)).toBeNull();
  });

  it('makes nothing below a link further up than the parent (~/.pi a link: no ~/.pi/agent/sessions made through it)', async () => {
    const home = join(root, 'home');
    const victim = join(root, 'victim');
    await mkdir(home);
    await mkdir(join(victim, 'agent'), { recursive: true });
    await symlink(victim, join(home, '.pi'));
    await ensureMountPoints(denyMountPoints({ home, stateDir: join(root, 'no-state'), codexHome: join(root, 'no-codex') }));
    expect(await readdir(join(victim, 'agent'))).toEqual([]);
    // The points under real folders are made as before.
    expect((await lstat(join(home, '.ssh'))).isDirectory()).toBe(true);
  });
});
