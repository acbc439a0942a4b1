import { describe, expect, it } from 'vitest';
import { cacheDirFor } from '../../../src/main/core/compile/cache';
import { probeMatrix, type MatrixInput, type Probe } from '../../../src/main/core/verify/matrix';
import { FACTS, profile, tableOf } from '../compile/fixture';

const FIX = {
  probeFile: '/h/.angelia/compiled/.p.txt',
  linkPath: '/h/.angelia/workspace/profiles/coder/.l',
  writeName: '.w',
  socketPath: '/h/.angelia/v.sock',
  tcpPort: 4567,
};

function input(over: Partial<MatrixInput> = {}): MatrixInput {
  const coder = profile('coder', { addDirs: ['/h/src/site'] });
  return { profile: coder, table: tableOf(coder, profile('writer')), facts: FACTS, guardDeny: null, fixtures: FIX, ...over };
}

const find = (ps: Probe[], path: string, op: Probe['op']) => ps.find((p) => p.path === path && p.op === op);
const cwd = '/h/.angelia/workspace/profiles/coder';

describe('probeMatrix', () => {
  it('starts with a control, then what the profile may write', () => {
    const ps = probeMatrix(input());
    expect(ps[0]).toEqual({ name: 'control: a command runs', path: cwd, op: 'run', expected: 'allowed', mustExist: false });
    expect(find(ps, cwd, 'write')?.expected).toBe('allowed');
    expect(find(ps, '/h/src/site', 'write')).toMatchObject({ name: 'add_dirs', expected: 'allowed', mustExist: true });
    expect(find(ps, '/h/.angelia/workspace/_common', 'write')?.expected).toBe('allowed');
    expect(find(ps, cacheDirFor('/h/.angelia', 'coder'), 'write')?.expected).toBe('allowed');
  });

  it('tries a denied state file five ways: read, sh -c, a symlink, list, write', () => {
    const ps = probeMatrix(input());
    expect(ps.filter((p) => p.path === FIX.probeFile).map((p) => [p.op, p.expected, p.via])).toEqual([
      ['read', 'denied', undefined],
      ['read-sh', 'denied', undefined],
      ['read-link', 'denied', FIX.linkPath],
    ]);
    expect(ps.filter((p) => p.path === '/h/.angelia/compiled').map((p) => [p.op, p.expected])).toEqual([
      ['list', 'denied'],
      ['write', 'denied'],
    ]);
  });

  it('denies the floor: owner token, Codex login, credentials, other profiles and their caches', () => {
    const ps = probeMatrix(input());
    for (const path of [
      '/h/.angelia/api.token',
      '/h/.angelia/env',
      '/h/.codex/auth.json',
      '/h/.ssh',
      '/h/.angelia/workspace/profiles/writer',
      cacheDirFor('/h/.angelia', 'writer'),
      '/h/.angelia/cache/codex',
    ]) {
      expect(find(ps, path, 'read'), path).toMatchObject({ expected: 'denied', mustExist: true });
    }
    expect(find(ps, cacheDirFor('/h/.angelia', 'coder'), 'read')).toBeUndefined();
  });

  it("keeps launch files, Codex's project folders and _shared read-only, and no socket or port reachable", () => {
    const ps = probeMatrix(input());
    for (const d of ['.codex', '.agents', '.claude']) {
      expect(find(ps, `${cwd}/${d}`, 'read')?.expected).toBe('allowed');
      expect(find(ps, `${cwd}/${d}`, 'write')?.expected).toBe('denied');
    }
    expect(find(ps, '/h/.angelia/workspace/_shared', 'write')?.expected).toBe('denied');
    expect(find(ps, FIX.socketPath, 'connect')).toMatchObject({ expected: 'denied', mustExist: true });
    expect(find(ps, '127.0.0.1:4567', 'connect')).toMatchObject({ expected: 'denied', mustExist: false });
  });

  it('plan mode: nothing is writable and there is no cache', () => {
    const coder = profile('coder', { permissionMode: 'plan', addDirs: ['/h/src/site'] });
    const ps = probeMatrix(input({ profile: coder, table: tableOf(coder) }));
    expect(find(ps, cwd, 'write')?.expected).toBe('denied');
    expect(find(ps, '/h/src/site', 'write')?.expected).toBe('denied');
    expect(find(ps, cacheDirFor('/h/.angelia', 'coder'), 'write')).toBeUndefined();
  });

  it("the last compile's rules: Read → denied, Edit alone → read-only; patterns and MCP rules are not probed", () => {
    const ps = probeMatrix(
      input({ guardDeny: ['Read(/x/secret/**)', 'Edit(/x/secret/**)', 'Edit(/x/ro/**)', 'Read(/x/*.pem)', 'mcp__srv', 'Read(/h/.ssh/**)'] }),
    );
    expect(find(ps, '/x/secret', 'read')).toMatchObject({ name: 'last compile: denied', expected: 'denied' });
    expect(find(ps, '/x/secret', 'write')).toBeUndefined();
    expect(find(ps, '/x/ro', 'read')).toMatchObject({ name: 'last compile: read-only', expected: 'allowed' });
    expect(find(ps, '/x/ro', 'write')?.expected).toBe('denied');
    expect(ps.some((p) => p.path.includes('*'))).toBe(false);
    expect(find(ps, '/h/.ssh', 'read')?.name).toBe('denied: credential location');
  });

  it('does not deny another profile folder that overlaps this one, and never lists a probe twice', () => {
    const coder = profile('coder', { cwd: '/h/w' });
    const inner = profile('inner', { cwd: '/h/w/inner' });
    const ps = probeMatrix(input({ profile: coder, table: tableOf(coder, inner), guardDeny: ['Read(/h/.angelia/compiled/**)', 'Read(~/.aws/**)'] }));
    expect(find(ps, '/h/w/inner', 'read')).toBeUndefined();
    const keys = ps.map((p) => `${p.op === 'list' ? 'read' : p.op} ${p.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('probeMatrix: HOME is private by default', () => {
  it('reads what the profile names (read_dirs) but cannot write it, and scans HOME against the compiled entries', () => {
    const coder = profile('coder', { readDirs: ['/h/notes'] });
    const filesystem = { '/h/notes': 'read', [cwd]: 'write', '/h/.ssh': 'deny' } as const;
    const ps = probeMatrix(input({ profile: coder, table: tableOf(coder, profile('writer')), filesystem }));
    expect(find(ps, '/h/notes', 'read')).toMatchObject({ expected: 'allowed', mustExist: true, name: 'readable: read_dirs' });
    expect(find(ps, '/h/notes', 'write')).toMatchObject({ expected: 'denied' });
    expect(find(ps, '/h', 'scan')).toMatchObject({
      expected: 'denied',
      scan: { grants: ['/h/notes', cwd], denies: ['/h/.ssh'], carveOuts: ['/h/.codex/tmp'] },
    });
    expect(find(probeMatrix(input()), '/h', 'scan')).toBeUndefined();
  });
});
