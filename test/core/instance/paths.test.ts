import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childrenFile } from '../../../src/main/core/codex/children';
import { expandPath, isWithin, PRIVATE_DIR, PRIVATE_FILES, privateFile, resolveInstance } from '../../../src/main/core/instance/paths';

describe('resolveInstance', () => {
  it('places everything under ~/.angelia by default', () => {
    const p = resolveInstance({ HOME: '/home/ann' });
    expect(p).toEqual({
      home: '/home/ann',
      stateDir: '/home/ann/.angelia',
      workspace: '/home/ann/.angelia/workspace',
      tableFile: '/home/ann/.angelia/workspace/angelia.toml',
      compiledDir: '/home/ann/.angelia/compiled',
      acceptedTable: '/home/ann/.angelia/compiled/angelia.accepted.toml',
      privateDir: '/home/ann/.angelia/private',
      sessionsFile: '/home/ann/.angelia/private/sessions.json',
      childrenFile: '/home/ann/.angelia/private/children.json',
      apiToken: '/home/ann/.angelia/private/api.token',
      apiSock: '/home/ann/.angelia/api.sock',
      envFile: '/home/ann/.angelia/env',
      auditLog: '/home/ann/.angelia/private/audit.jsonl',
      cacheRoot: '/home/ann/.angelia/cache/codex',
      logsDir: '/home/ann/.angelia/logs',
      codexHome: '/home/ann/.codex',
    });
  });

  it('honours ANGELIA_STATE_DIR, ANGELIA_CONFIG and CODEX_HOME, expanding ~', () => {
    const p = resolveInstance({ HOME: '/home/ann', ANGELIA_STATE_DIR: '~/state', ANGELIA_CONFIG: '~/cfg/table.toml', CODEX_HOME: '/opt/codex-home/' });
    expect(p.stateDir).toBe('/home/ann/state');
    expect(p.workspace).toBe('/home/ann/state/workspace');
    expect(p.tableFile).toBe('/home/ann/cfg/table.toml');
    expect(p.acceptedTable).toBe('/home/ann/state/compiled/angelia.accepted.toml');
    expect(p.codexHome).toBe('/opt/codex-home');
  });

  it("keeps every file Angelia writes itself in <state>/private, and only the user's env and the socket at the top", () => {
    const p = resolveInstance({ HOME: '/h', ANGELIA_STATE_DIR: '/srv/state' });
    expect(p.privateDir).toBe(join('/srv/state', PRIVATE_DIR));
    for (const file of [p.sessionsFile, `${p.sessionsFile}.bak`, `${p.sessionsFile}.lock`, p.childrenFile, p.auditLog, p.apiToken])
      expect(dirname(file), file).toBe(p.privateDir);
    expect(PRIVATE_FILES.map((name) => privateFile(p.stateDir, name))).toEqual([
      p.sessionsFile,
      `${p.sessionsFile}.bak`,
      p.childrenFile,
      p.auditLog,
      p.apiToken,
    ]);
    expect(childrenFile(p.stateDir)).toBe(p.childrenFile);
    expect([dirname(p.envFile), dirname(p.apiSock)]).toEqual([p.stateDir, p.stateDir]);
  });

  it('treats an empty variable as unset', () => {
    expect(resolveInstance({ HOME: '/h', ANGELIA_STATE_DIR: '', ANGELIA_CONFIG: '' }).tableFile).toBe('/h/.angelia/workspace/angelia.toml');
  });
});

describe('expandPath and isWithin', () => {
  it('expands ~ and ~/, resolves relative paths against the base, leaves ~user alone', () => {
    expect(expandPath('~', '/h')).toBe('/h');
    expect(expandPath('~/a/../b/', '/h')).toBe('/h/b');
    expect(expandPath('rel/x', '/h', '/base')).toBe('/base/rel/x');
    expect(expandPath('/abs//y', '/h', '/base')).toBe('/abs/y');
    expect(expandPath('~bob/x', '/h', '/base')).toBe('/base/~bob/x');
  });

  it('isWithin is true for the folder itself and below it, not for a sibling with the same prefix', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b/c', '/a/b')).toBe(true);
    expect(isWithin('/a/bc', '/a/b')).toBe(false);
    expect(isWithin('/a', '/a/b')).toBe(false);
    expect(isWithin('/x', '/')).toBe(true);
  });
});
