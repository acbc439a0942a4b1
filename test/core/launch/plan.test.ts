import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'smol-toml';
import { splitRequested } from '../../../src/main/core/approvals/privateReach';
import { featuresOf, planLaunch } from '../../../src/main/core/launch/plan';
import { launchRefusal, loosenings } from '../../../src/main/core/launch/check';
import { scrubEnv } from '../../../src/main/core/launch/env';
import { parseGuard } from '../../../src/main/core/launch/guard';
import { guardPath, type OutsideSandbox } from '../../../src/main/core/compile/guardFile';
import { loadTable } from '../../../src/main/core/table/load';
import { writeCompiled } from '../../fixtures/compiled';
import { makeInstance } from '../../fixtures/instance';

/**
 * What planLaunch checks once the launch is compiled (launch/check.ts `loosenings`), thrown as a start
 * throws it (`launchRefusal`): the guard in `state` against what the start would grant now.
 */
function assertCompileCurrent(
  state: string,
  profile: string,
  deny: string[],
  write: string[] = [],
  outside?: OutsideSandbox,
  read?: string[],
  env?: string[],
): void {
  const file = guardPath(state, profile);
  const read1 = parseGuard({ path: file, text: readFileSync(file, 'utf8') });
  if (!read1.ok) throw new Error(read1.text);
  const reasons = loosenings(read1.guard, { deny, write, read, env, outside });
  if (reasons.length > 0) throw launchRefusal(reasons, state, profile);
}

describe('launch plan helpers', () => {
  it('removes billing and endpoint variables and Angelia tokens from the child environment', () => {
    const env = scrubEnv(
      { PATH: '/bin', OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'https://x', CODEX_API_KEY: 'c', ANGELIA_API_TOKEN: 'owner' },
      { npm_config_cache: '/c/npm' },
    );
    expect(env).toEqual({ PATH: '/bin', RUST_LOG: 'warn', npm_config_cache: '/c/npm' });
  });

  it('lets the launch set its own token after scrubbing', () => {
    expect(scrubEnv({ ANGELIA_API_TOKEN: 'owner' }, { ANGELIA_API_TOKEN: 'chat' }).ANGELIA_API_TOKEN).toBe('chat');
  });

  it('reads the feature flags of a compiled argv', () => {
    expect(featuresOf(['-c', 'features.network_proxy=true', '-c', 'default_permissions="angelia"', '-c', 'features.x_y=false', 'app-server'])).toEqual({
      network_proxy: true,
      x_y: false,
    });
  });
});

describe('a table accepted but not compiled', () => {
  it('refuses a start that would lift a deny rule of the last compile, until compiled again', () => {
    const state = mkdtempSync(join(tmpdir(), 'angelia-guard-'));
    try {
      const file = guardPath(state, 'coder');
      mkdirSync(join(state, 'compiled'), { recursive: true });
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          profile: 'coder',
          cwd: '/w',
          backend: 'codex',
          deny: ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'mcp__old'],
          codexSandbox: true,
          compiledAt: '2026-11-30T00:00:00Z',
        }),
      );
      expect(() => assertCompileCurrent(state, 'coder', ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'Read(/h/.aws/**)'])).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', ['Read(/h/.aws/**)'])).toThrow(/lifts 2 deny rule\(s\) of the last compile \(Read\(\/h\/\.ssh\/\*\*\)/);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('a variable passed on purpose (env) waits for compile --write', () => {
  it('refuses a start that passes a name the last compile did not record; an old guard records none', () => {
    const state = mkdtempSync(join(tmpdir(), 'angelia-guard-'));
    try {
      mkdirSync(join(state, 'compiled'), { recursive: true });
      const guard = { version: 1, profile: 'coder', cwd: '/w', backend: 'codex', deny: [], codexSandbox: true, write: [], compiledAt: '2026-11-30T00:00:00Z' };
      writeFileSync(guardPath(state, 'coder'), JSON.stringify({ ...guard, env: ['PGHOST'] }));
      expect(() => assertCompileCurrent(state, 'coder', [], [], undefined, [], ['PGHOST'])).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', [], [], undefined, [], [])).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', [], [], undefined, [], ['PGHOST', 'DATABASE_URL'])).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({
            code: 'refused',
            fix: 'angelia compile --write coder',
            message: expect.stringContaining("passes 1 environment variable(s) to this profile's commands that the last compile did not (DATABASE_URL)"),
          }) as unknown,
        }),
      );
      writeFileSync(guardPath(state, 'coder'), JSON.stringify(guard));
      expect(() => assertCompileCurrent(state, 'coder', [], [], undefined, [], ['PGHOST'])).toThrow(/environment variable/);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('what runs outside the sandbox waits for compile --write (MCP servers, bin)', () => {
  const GH = 'gh {"command":"npx","args":["-y","server-github"],"url":null,"env":["GITHUB_TOKEN"]}';
  function withGuard(extra: Record<string, unknown>, run: (state: string) => void): void {
    const state = mkdtempSync(join(tmpdir(), 'angelia-guard-'));
    try {
      mkdirSync(join(state, 'compiled'), { recursive: true });
      writeFileSync(
        guardPath(state, 'coder'),
        JSON.stringify({
          version: 1,
          profile: 'coder',
          cwd: '/w',
          backend: 'codex',
          deny: [],
          codexSandbox: true,
          write: [],
          compiledAt: '2026-11-30T00:00:00Z',
          ...extra,
        }),
      );
      run(state);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }

  it('a start with the MCP servers and bin the last compile recorded (or fewer servers) goes on', () => {
    withGuard({ mcp: [GH], bin: '/opt/codex' }, (state) => {
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [GH], bin: '/opt/codex' })).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [], bin: '/opt/codex' })).not.toThrow();
    });
  });

  it('an MCP server given (or redefined) since the last compile refuses the start with the fix', () => {
    withGuard({ mcp: [], bin: null }, (state) => {
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [GH], bin: null })).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({
            code: 'refused',
            message: expect.stringMatching(/gives this profile 1 MCP server\(s\) the last compile did not \(gh\); MCP servers run outside the sandbox/),
            fix: 'angelia compile --write coder',
          }),
        }),
      );
    });
    withGuard({ mcp: [GH.replace('server-github', 'other-server')], bin: null }, (state) => {
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [GH], bin: null })).toThrow(/1 MCP server\(s\) the last compile did not \(gh\)/);
    });
  });

  it('a bin changed since the last compile refuses the start', () => {
    withGuard({ mcp: [], bin: null }, (state) => {
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [], bin: '/opt/other-codex' })).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({
            code: 'refused',
            message: expect.stringMatching(/runs the Codex executable \/opt\/other-codex \(bin\), but the last compile recorded the bundled one/),
            fix: 'angelia compile --write coder',
          }),
        }),
      );
    });
  });

  it('a guard from before mcp and bin were recorded fails closed for a profile that has them, and only then', () => {
    withGuard({}, (state) => {
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [], bin: null })).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [GH], bin: null })).toThrow(
        /the last compile did not record which MCP servers this profile may start/,
      );
      expect(() => assertCompileCurrent(state, 'coder', [], [], { mcp: [], bin: '/opt/codex' })).toThrow(
        /the last compile did not record which Codex executable/,
      );
    });
  });
});

describe("a runtime grant never lies in or holds another profile's writable folder (the in-session window)", () => {
  it("a write grant holding writer's add_dir, or a path inside it, is refused for coder; a folder beside it is granted", async () => {
    const inst = await makeInstance({ coder: { permission_mode: 'default' }, writer: { permission_mode: 'default' } }, { privateHome: true });
    try {
      const data = join(inst.root, 'data');
      const theirs = join(data, 'theirs');
      mkdirSync(theirs, { recursive: true });
      mkdirSync(join(inst.root, 'free'));
      await writeFile(
        inst.paths.tableFile,
        stringify({
          profiles: {
            coder: { cwd: inst.cwd.coder, permission_mode: 'default' },
            writer: { cwd: inst.cwd.writer, permission_mode: 'default', add_dirs: [theirs] },
          },
        }),
      );
      const table = await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env });
      await writeCompiled(inst.paths, table);
      const plan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths: inst.paths, env: inst.env });
      // Granted, coder's agent could rename <root>/data/theirs and put a link there: writer's next command follows it.
      const split = splitRequested({ read: [join(theirs, 'x')], write: [data, join(inst.root, 'free')], network: false }, plan.grantFloor);
      expect(split.grantable).toEqual({ read: [], write: [join(inst.root, 'free')], network: false });
      expect(split.refused).toEqual([
        {
          access: 'write',
          path: data,
          why: `it holds ${theirs} (profile writer's add_dir (profiles.writer.add_dirs[0])), which a symbolic link could then replace`,
        },
        {
          access: 'read',
          path: join(theirs, 'x'),
          why: `it lies in ${theirs} (profile writer's add_dir (profiles.writer.add_dirs[0])), where a symbolic link could redirect the grant`,
        },
      ]);
    } finally {
      await inst.cleanup();
    }
  });
});
