import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { allowedMcpServers, compileCodexLaunch, threadParams, type CodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { planText } from '../../../src/main/core/compile/planText';
import { mcpEnvNames } from '../../../src/main/core/compile/mcpFlags';
import { AppFailure } from '../../../src/shared/result';
import { FACTS, fixtureTable, profile, tableOf } from './fixture';

/** The `-c` values of a launch as a map key → raw value text. */
function flags(launch: CodexLaunch): Map<string, string> {
  const out = new Map<string, string>();
  const args = launch.codexArgs;
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-c') continue;
    const kv = args[i + 1]!;
    const eq = kv.indexOf('=');
    out.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return out;
}

/** Parses one flag value as Codex would (TOML). */
function value(launch: CodexLaunch, key: string): unknown {
  const raw = flags(launch).get(key);
  if (raw === undefined) return undefined;
  return (parse(`v = ${raw}`) as { v: unknown }).v;
}

describe('compileCodexLaunch: shape of the argv', () => {
  it('puts every override before "app-server", as -c pairs whose keys are bare dotted words', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS);
    const args = launch.codexArgs;
    expect(args.at(-1)).toBe('app-server');
    expect(args.length % 2).toBe(1);
    for (let i = 0; i < args.length - 1; i += 2) {
      expect(args[i]).toBe('-c');
      expect(args[i + 1]!.split('=')[0]).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/);
    }
  });

  it('passes the filesystem as ONE inline table that parses back to exactly launch.specials + launch.filesystem', () => {
    const launch = compileCodexLaunch(fixtureTable('default'), 'coder', FACTS);
    expect(launch.codexArgs.filter((a) => a.startsWith('permissions.angelia.filesystem'))).toHaveLength(1);
    expect(value(launch, 'permissions.angelia.filesystem')).toEqual({ ...launch.specials, ...launch.filesystem });
    expect(Object.keys(launch.sources).sort()).toEqual(Object.keys(launch.filesystem).sort());
  });

  it('reads CLAUDE.md as the project doc in every variant, with and without sandbox', () => {
    for (const sandbox of [true, false]) {
      expect(value(compileCodexLaunch(fixtureTable('plan', sandbox), 'writer', FACTS), 'project_doc_fallback_filenames')).toEqual(['CLAUDE.md']);
    }
  });
});

describe('compileCodexLaunch: modes', () => {
  it.each([
    ['default', 'on-request', false, true],
    ['acceptEdits', 'on-request', false, true],
    ['bypassPermissions', 'never', false, false],
    ['plan', 'never', true, false],
  ] as const)('%s → approval %s, no base profile (read-only %s)', (mode, policy, readOnly, features) => {
    const launch = compileCodexLaunch(fixtureTable(mode), 'coder', FACTS);
    expect(launch).toMatchObject({ sandboxed: true, approvalPolicy: policy, permissionsExtends: null, readOnly });
    expect(value(launch, 'default_permissions')).toBe('angelia');
    // A base (:workspace, :read-only) brings ":root" = "read": the whole disk. The profile is grants alone.
    expect(flags(launch).has('permissions.angelia.extends')).toBe(false);
    expect(value(launch, 'features.shell_snapshot')).toBe(false);
    expect(value(launch, 'features.exec_permission_approvals')).toBe(features ? true : undefined);
    expect(value(launch, 'features.request_permissions_tool')).toBe(features ? true : undefined);
  });

  it('plan mode has the same grants, each write one made read: no cache and nothing writable', () => {
    const launch = compileCodexLaunch(fixtureTable('plan'), 'coder', FACTS);
    expect(Object.values(launch.filesystem)).not.toContain('write');
    expect(launch.cacheDir).toBeNull();
    expect(launch.env).toEqual({});
    expect(launch.writableRoots).toEqual([]);
    expect(launch.filesystem['/h/.ssh']).toBe('deny');
    for (const p of ['/h/.angelia/workspace/profiles/coder', '/h/src/site', '/h/.angelia/workspace/_common']) {
      expect(launch.filesystem[p], p).toBe('read');
      expect(launch.sources[p]).toContain('read-only in plan mode');
    }
  });

  it('sandbox = false: no permission flag at all, full access said plainly', () => {
    const launch = compileCodexLaunch(fixtureTable('bypassPermissions', false), 'coder', FACTS);
    expect(launch).toMatchObject({ sandboxed: false, permissionsExtends: null, filesystem: {}, env: {}, cacheDir: null, approvalPolicy: 'never' });
    expect(launch.codexArgs.join(' ')).not.toMatch(/permissions|network|features/);
    expect(launch.warnings).toEqual([expect.stringContaining('FULL ACCESS')]);
  });
});

describe('compileCodexLaunch: network', () => {
  it('turns the network on through the proxy for every web domain, and opens no local socket on Linux', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS);
    expect(value(launch, 'features.network_proxy')).toBe(true);
    expect(value(launch, 'permissions.angelia.network.enabled')).toBe(true);
    expect(value(launch, 'permissions.angelia.network.mode')).toBe('full');
    expect(value(launch, 'permissions.angelia.network.domains')).toEqual({ '*': 'allow' });
    const all = launch.codexArgs.join('\n');
    expect(all).not.toMatch(/unix_sockets|dangerously_allow_all_unix_sockets|allow_local_binding|127\.0\.0\.1|localhost/);
  });

  it('on macOS allows exactly the API socket, and only when there is one', () => {
    const mac = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, platform: 'darwin' });
    expect(value(mac, 'permissions.angelia.network.unix_sockets')).toEqual({ '/h/.angelia/api.sock': 'allow' });
    const none = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, platform: 'darwin', apiSocket: null });
    expect(flags(none).has('permissions.angelia.network.unix_sockets')).toBe(false);
    expect(mac.filesystem['/h/Library/Keychains']).toBe('deny');
    expect(compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS).filesystem['/h/Library/Keychains']).toBeUndefined();
  });
});

describe('compileCodexLaunch: filesystem floor', () => {
  const coder = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS);

  it("denies the instance's private files, credentials, Codex's stores and the other profile's folder", () => {
    for (const p of [
      '/h/.angelia/env',
      '/h/.angelia/private',
      '/h/.angelia/api.token',
      '/h/.angelia/sessions.json',
      '/h/.angelia/compiled',
      '/h/.angelia/audit.jsonl',
      '/h/.ssh',
      '/h/.aws',
      '/h/.gnupg',
      '/h/.config/gh',
      '/h/.netrc',
      '/h/.git-credentials',
      '/h/.npmrc',
      '/h/.docker',
      '/h/.kube',
      '/h/.codex/auth.json',
      '/h/.codex/sessions',
      '/h/.codex/archived_sessions',
      '/h/.codex/history.jsonl',
      '/h/.codex/config.toml',
      '/h/.angelia/workspace/profiles/writer',
    ]) {
      expect(coder.filesystem[p], p).toBe('deny');
    }
    expect(coder.sources['/h/.angelia/workspace/profiles/writer']).toBe("profile writer's folder");
  });

  it('denies CODEX_HOME stores as well when CODEX_HOME is elsewhere', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, codexHome: '/srv/codex-home' });
    for (const f of ['auth.json', 'sessions', 'archived_sessions', 'history.jsonl', 'config.toml']) {
      expect(launch.filesystem[`/srv/codex-home/${f}`]).toBe('deny');
      expect(launch.filesystem[`/h/.codex/${f}`]).toBe('deny');
    }
  });

  it('makes add_dirs and its own cache writable, the cache root denied, launch files read-only', () => {
    const hash = createHash('sha256').update('coder').digest('hex').slice(0, 16);
    const cache = `/h/.angelia/cache/codex/${hash}`;
    expect(coder.filesystem['/h/src/site']).toBe('write');
    expect(coder.filesystem[cache]).toBe('write');
    expect(coder.filesystem['/h/.angelia/cache/codex']).toBe('deny');
    expect(coder.filesystem['/h/.angelia/cache']).toBeUndefined();
    expect(coder.filesystem['/h/.angelia/workspace/profiles/coder/.codex']).toBe('read');
    expect(coder.filesystem['/h/.angelia/workspace/profiles/coder/.agents']).toBe('read');
    expect(coder.filesystem['/h/.angelia/workspace/profiles/coder/.claude']).toBe('read');
    expect(coder.cacheDir).toBe(cache);
    expect(coder.env).toEqual({
      npm_config_cache: `${cache}/npm`,
      UV_CACHE_DIR: `${cache}/uv`,
      PIP_CACHE_DIR: `${cache}/pip`,
      XDG_CACHE_HOME: `${cache}/xdg`,
      TMPDIR: `${cache}/tmp`,
      TMP: `${cache}/tmp`,
      TEMP: `${cache}/tmp`,
    });
    expect(coder.writableRoots).toEqual(['/h/.angelia/workspace/profiles/coder', '/h/src/site', '/h/.angelia/workspace/_common', cache]);
  });

  it('grants the system folders commands need (:minimal) and no /tmp (:slash_tmp) in every sandboxed mode', () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions', 'plan'] as const) {
      expect(compileCodexLaunch(fixtureTable(mode), 'coder', FACTS).specials, mode).toEqual({ ':minimal': 'read' });
    }
    expect(compileCodexLaunch(fixtureTable('default', false), 'coder', FACTS).specials).toEqual({});
  });

  it('an add_dir that is a credential location lifts it; a wider add_dir does not', () => {
    const t = tableOf(profile('a', { addDirs: ['/h/.ssh', '/h/.config/gh/hosts', '/h/.config'] }));
    const launch = compileCodexLaunch(t, 'a', FACTS);
    expect(launch.filesystem['/h/.ssh']).toBe('write');
    expect(launch.filesystem['/h/.config/gh']).toBeUndefined();
    expect(launch.filesystem['/h/.aws']).toBe('deny');
    expect(launch.warnings).toEqual(expect.arrayContaining([expect.stringContaining('profiles.a.add_dirs[0]: /h/.ssh lifts the floor entry /h/.ssh')]));
  });

  it('a read_dir named in the table that is a credential location lifts it for reading, with a warning; the starter set never does', () => {
    const named = compileCodexLaunch(tableOf(profile('a', { readDirs: ['/h/.ssh'], readDirsStarter: false })), 'a', FACTS);
    expect(named.filesystem['/h/.ssh']).toBe('read');
    expect(named.warnings).toEqual(expect.arrayContaining([expect.stringContaining('profiles.a.read_dirs[0]: /h/.ssh lifts the floor entry /h/.ssh')]));
    const starter = compileCodexLaunch(tableOf(profile('a', { readDirs: ['/h/.ssh'], readDirsStarter: true })), 'a', FACTS);
    expect(starter.filesystem['/h/.ssh']).toBe('deny');
  });

  it('refuses a folder that holds the state folder or a Codex home: denies there hold only for names that exist', () => {
    for (const [dirs, held] of [
      [['/h'], '/h/.angelia'],
      [['/h/src', '/h/.codex'], '/h/.codex'],
      [['/h/.angelia'], '/h/.angelia'],
    ] as const) {
      expect(() => compileCodexLaunch(tableOf(profile('a', { addDirs: [...dirs] })), 'a', FACTS)).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({
            code: 'unsafe-reach',
            where: `profiles.a.add_dirs[${dirs.length - 1}]`,
            message: expect.stringContaining(`(${held})`),
          }),
        }),
      );
    }
    expect(() => compileCodexLaunch(tableOf(profile('a', { cwd: '/h' })), 'a', FACTS)).toThrow(
      expect.objectContaining({ app: expect.objectContaining({ code: 'unsafe-reach', where: 'profiles.a.cwd' }) }),
    );
  });

  it('refuses an add_dir that is a symlink to the state folder (found by a fresh-clone run)', () => {
    const root = mkdtempSync(join(process.cwd(), '.angelia-test', 'reach-link-'));
    try {
      const state = join(root, 'state');
      mkdirSync(state);
      const link = join(root, 'sl');
      symlinkSync(state, link);
      const facts = { ...FACTS, stateDir: state };
      expect(() => compileCodexLaunch(tableOf(profile('a', { addDirs: [link] })), 'a', facts)).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({ code: 'unsafe-reach', where: 'profiles.a.add_dirs[0]', message: expect.stringContaining(`(${state})`) }),
        }),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("an add_dir inside the instance's private state stays denied, with a warning", () => {
    const launch = compileCodexLaunch(tableOf(profile('a', { addDirs: ['/h/.angelia/compiled'] })), 'a', FACTS);
    expect(launch.filesystem['/h/.angelia/compiled']).toBe('deny');
    expect(launch.writableRoots).not.toContain('/h/.angelia/compiled');
    expect(launch.warnings).toEqual(expect.arrayContaining([expect.stringContaining('stays denied')]));
  });

  it("does not deny a nested profile's folder, and warns", () => {
    const t = tableOf(profile('outer', { cwd: '/h/work' }), profile('inner', { cwd: '/h/work/inner' }), profile('apart', { cwd: '/h/apart' }));
    const outer = compileCodexLaunch(t, 'outer', FACTS);
    expect(outer.filesystem['/h/work/inner']).toBeUndefined();
    expect(outer.filesystem['/h/apart']).toBe('deny');
    expect(outer.warnings).toEqual(expect.arrayContaining([expect.stringContaining("profile inner's folder /h/work/inner overlaps")]));
    const inner = compileCodexLaunch(t, 'inner', FACTS);
    expect(inner.filesystem['/h/work']).toBeUndefined();
  });

  it("another profile's folder given through add_dirs or a named read_dir: the warning names that field; a read_dir there stays denied and says so", () => {
    const t = tableOf(
      profile('assistant', { cwd: '/h/work/assistant' }),
      profile('w', { cwd: '/h/w', addDirs: ['/h/work/assistant'] }),
      profile('r', { cwd: '/h/r', readDirs: ['/h/work/assistant'], readDirsStarter: false }),
    );
    const w = compileCodexLaunch(t, 'w', FACTS);
    expect(w.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^profiles\.w\.add_dirs\[0\]: profile assistant's folder \/h\/work\/assistant overlaps this profile's reach \/h\/work\/assistant/,
        ),
      ]),
    );
    const r = compileCodexLaunch(t, 'r', FACTS);
    expect(r.filesystem['/h/work/assistant']).toBe('deny');
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^profiles\.r\.read_dirs\[0\]: \/h\/work\/assistant lies in profile assistant's folder \/h\/work\/assistant, which stays denied/),
      ]),
    );
  });

  it('skips a path Codex would read as a glob, and says the location is not denied', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, home: '/home/[x]' });
    expect(Object.keys(launch.filesystem).some((p) => p.startsWith('/home/[x]'))).toBe(false);
    expect(launch.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/not passed to the sandbox: deny \/home\/\[x\]\/\.ssh .*NOT DENIED/)]));
  });
});

describe('compileCodexLaunch: encoding', () => {
  it('encodes a path with quotes, backslashes, unicode and control characters so Codex reads it back exactly', () => {
    const odd = '/h/we"ird \\dir/ünï cödé 😀/tab\there/del\u007f';
    const launch = compileCodexLaunch(tableOf(profile('a', { addDirs: [odd] })), 'a', FACTS);
    const raw = flags(launch).get('permissions.angelia.filesystem')!;
    expect(raw).toContain(String.raw`"/h/we\"ird \\dir/ünï cödé 😀/tab\there/del\u007f" = "write"`);
    expect((value(launch, 'permissions.angelia.filesystem') as Record<string, string>)[odd]).toBe('write');
  });

  it('switches off the user MCP servers, and refuses a name -c cannot address', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, userMcpServers: ['docs', 'git-hub_2'] });
    expect(value(launch, 'mcp_servers.docs.enabled')).toBe(false);
    expect(value(launch, 'mcp_servers.git-hub_2.enabled')).toBe(false);
    const off = compileCodexLaunch(fixtureTable('acceptEdits', false), 'coder', { ...FACTS, userMcpServers: ['docs'] });
    expect(value(off, 'mcp_servers.docs.enabled')).toBe(false);
    const bad = (() => {
      try {
        compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, userMcpServers: ['my.server'] });
      } catch (e) {
        return e;
      }
    })();
    expect(bad).toBeInstanceOf(AppFailure);
    expect((bad as AppFailure).app).toMatchObject({ code: 'mcp-name', where: '/h/.codex/config.toml' });
  });

  it('an unknown profile is an AppFailure naming the table and the known profiles', () => {
    const e = (() => {
      try {
        compileCodexLaunch(fixtureTable('plan'), 'nobody', FACTS);
      } catch (x) {
        return x as AppFailure;
      }
    })();
    expect(e?.app).toMatchObject({ code: 'profile-unknown', where: '/h/.angelia/workspace/angelia.toml: profiles.nobody', fix: 'use one of: coder, writer' });
  });
});

describe('compileCodexLaunch: MCP capabilities', () => {
  const mcpTable = () => {
    const t = tableOf(profile('a', { allowed: ['gh', 'web'], denied: ['old'] }), profile('b'));
    t.capabilities = {
      gh: { name: 'gh', kind: 'mcp', command: 'npx', args: ['-y', 'server "gh"'], url: null, env: ['GITHUB_TOKEN', 'GH_HOST'], when: null, secrets: [] },
      web: { name: 'web', kind: 'mcp', command: null, args: [], url: 'https://mcp.example.com/mcp', env: [], when: null, secrets: [] },
      old: { name: 'old', kind: 'mcp', command: 'old-server', args: [], url: null, env: [], when: null, secrets: ['/h/old.key'] },
    };
    return t;
  };

  it('defines each allowed server with one -c table (command, args, env_vars names) or a url', () => {
    const launch = compileCodexLaunch(mcpTable(), 'a', { ...FACTS, userMcpServers: ['userdocs'] });
    // Started in the user's home, never in the agent's folder (compile/mcpFlags.ts).
    expect(value(launch, 'mcp_servers.gh')).toEqual({ command: 'npx', args: ['-y', 'server "gh"'], env_vars: ['GITHUB_TOKEN', 'GH_HOST'], cwd: '/h' });
    expect(value(launch, 'mcp_servers.web')).toEqual({ url: 'https://mcp.example.com/mcp' });
    expect(value(launch, 'mcp_servers.userdocs.enabled')).toBe(false);
    expect(flags(launch).has('mcp_servers.old')).toBe(false);
    expect(launch.mcpServers).toEqual(['gh', 'web']);
    expect(launch.filesystem['/h/old.key']).toBe('deny');
  });

  it('a profile not given a capability gets no definition of it', () => {
    const launch = compileCodexLaunch(mcpTable(), 'b', FACTS);
    expect([...flags(launch).keys()].filter((k) => k.startsWith('mcp_servers'))).toEqual([]);
    expect(launch.mcpServers).toEqual([]);
  });

  it('exports the allowed MCP names of a profile (the start check allows no other)', () => {
    expect(allowedMcpServers(mcpTable(), 'a')).toEqual(['gh', 'web']);
    expect(allowedMcpServers(mcpTable(), 'b')).toEqual([]);
    expect(() => allowedMcpServers(mcpTable(), 'zz')).toThrow(AppFailure);
  });

  it('names the env variables to strip from every child and to give back to this profile', () => {
    const t = mcpTable();
    t.capabilities.old = { name: 'old', kind: 'mcp', command: 'old-server', args: [], url: null, env: ['OLD_KEY'], when: null, secrets: [] };
    expect(mcpEnvNames(t, t.profiles.a!)).toEqual({ all: ['GH_HOST', 'GITHUB_TOKEN', 'OLD_KEY'], given: ['GH_HOST', 'GITHUB_TOKEN'] });
    expect(mcpEnvNames(t, t.profiles.b!).given).toEqual([]);
  });

  it('refuses an allowed capability named like a user-level server (Codex would merge the two)', () => {
    const e = (() => {
      try {
        compileCodexLaunch(mcpTable(), 'a', { ...FACTS, userMcpServers: ['gh'] });
      } catch (x) {
        return x as AppFailure;
      }
    })();
    expect(e?.app).toMatchObject({ code: 'mcp-collision', where: '/h/.codex/config.toml: mcp_servers.gh' });
    expect(e?.app.fix).toContain('rename [capabilities.gh]');
  });
});

describe('threadParams', () => {
  it('never sends a sandbox value while sandboxed', () => {
    const t = fixtureTable('default');
    const params = threadParams(compileCodexLaunch(t, 'coder', FACTS), t.profiles.coder!);
    expect(params).toEqual({ approvalPolicy: 'on-request', approvalsReviewer: 'user', cwd: '/h/.angelia/workspace/profiles/coder' });
    expect('sandbox' in params).toBe(false);
  });

  it('sends danger-full-access only without sandbox, and the model when the profile names one', () => {
    const t = tableOf(profile('a', { sandbox: false, permissionMode: 'plan', model: 'gpt-5.5' }));
    expect(threadParams(compileCodexLaunch(t, 'a', FACTS), t.profiles.a!)).toEqual({
      approvalPolicy: 'never',
      approvalsReviewer: 'user',
      cwd: '/h/.angelia/workspace/profiles/a',
      model: 'gpt-5.5',
      sandbox: 'danger-full-access',
    });
  });
});

describe('compileCodexLaunch: grants (HOME private by default)', () => {
  const home = (p: string): boolean => p === '/h' || p.startsWith('/h/');

  it("grants in HOME only the profile's folders, the workspace folders, its cache, the angelia command and skills", () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS);
    const granted = Object.entries(launch.filesystem)
      .filter(([p, a]) => a !== 'deny' && home(p))
      .map(([p]) => p);
    expect(granted.sort()).toEqual([
      '/h/.agents/skills',
      '/h/.angelia/bin',
      '/h/.angelia/cache/codex/c84a9e3ad144b43d',
      '/h/.angelia/cache/codex/c84a9e3ad144b43d/tmp',
      '/h/.angelia/workspace/_capabilities',
      '/h/.angelia/workspace/_common',
      '/h/.angelia/workspace/_shared',
      '/h/.angelia/workspace/profiles/coder',
      '/h/.angelia/workspace/profiles/coder/.agents',
      '/h/.angelia/workspace/profiles/coder/.claude',
      '/h/.angelia/workspace/profiles/coder/.codex',
      '/h/.codex/skills',
      '/h/src/site',
    ]);
    expect(launch.filesystem['/h/.angelia/workspace/profiles/coder']).toBe('write');
    // TMPDIR is an entry of its own: a mount point the agent cannot swap for a link (Codex follows it).
    expect(launch.filesystem['/h/.angelia/cache/codex/c84a9e3ad144b43d/tmp']).toBe('write');
    expect(launch.env.TMPDIR).toBe('/h/.angelia/cache/codex/c84a9e3ad144b43d/tmp');
    expect(launch.filesystem['/opt/codex/vendor/x86_64-unknown-linux-musl']).toBe('read');
    expect(launch.filesystem['/usr/bin/node']).toBe('read');
  });

  it('gives read_dirs (the starter set when left out) only where something exists, and names the rest', () => {
    const exists = (p: string): boolean => ['/h/.local/bin', '/h/.rustup', '/h/notes'].some((e) => p === e || p.startsWith(`${e}/`)) || !home(p);
    const starter = tableOf(profile('a', { readDirs: ['/h/.local/bin', '/h/.cargo/bin', '/h/.nvm', '/h/.pyenv', '/h/.rustup'], readDirsStarter: true }));
    const launch = compileCodexLaunch(starter, 'a', { ...FACTS, exists });
    expect(launch.filesystem['/h/.local/bin']).toBe('read');
    expect(launch.filesystem['/h/.rustup']).toBe('read');
    expect(launch.sources['/h/.local/bin']).toBe('read_dirs (starter set: a toolchain in your home)');
    for (const p of ['/h/.cargo/bin', '/h/.nvm', '/h/.pyenv']) expect(launch.filesystem[p], p).toBeUndefined();
    expect(launch.missingReads.map((m) => m.path)).toEqual(['/h/.cargo/bin', '/h/.nvm', '/h/.pyenv']);
    // The skills folders of an empty home are not given either, nor named (nothing was asked for).
    expect(launch.filesystem['/h/.codex/skills']).toBeUndefined();

    const own = compileCodexLaunch(tableOf(profile('a', { readDirs: ['/h/notes'] })), 'a', { ...FACTS, exists });
    expect(own.filesystem['/h/notes']).toBe('read');
    expect(own.sources['/h/notes']).toBe('read_dirs');
    expect(own.filesystem['/h/.local/bin']).toBeUndefined();
  });

  it('gives a skill capability for reading, with its secrets; a denied skill stays denied', () => {
    const t = {
      ...tableOf(profile('a', { allowed: ['notes'] }), profile('b', { denied: ['notes'] })),
      capabilities: { notes: { name: 'notes', kind: 'skill' as const, path: '/h/skills/notes', when: null, secrets: ['/h/keys/notes.key'] } },
    };
    const a = compileCodexLaunch(t, 'a', FACTS);
    expect(a.filesystem['/h/skills/notes']).toBe('read');
    expect(a.filesystem['/h/keys/notes.key']).toBe('read');
    expect(a.sources['/h/keys/notes.key']).toBe('secret of skill capability notes');
    const b = compileCodexLaunch(t, 'b', FACTS);
    expect(b.filesystem['/h/skills/notes']).toBe('deny');
    expect(b.filesystem['/h/keys/notes.key']).toBe('deny');
  });

  it('the /ask variant reads the angelia command too (there it says it is a read-only copy), writes nothing', () => {
    const ask = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS, { readOnly: true });
    for (const p of ['/h/.angelia/bin', '/usr/bin/node', '/opt/angelia/out', '/opt/codex/vendor/x86_64-unknown-linux-musl'])
      expect(ask.filesystem[p], p).toBe('read');
    expect(Object.values(ask.filesystem)).not.toContain('write');
  });

  it('refuses a read_dir that holds, or lies in, a Codex home or the private state; the workspace is fine', () => {
    for (const [dir, word] of [
      ['/h', 'holds'],
      ['/h/.codex/sessions', 'lies in'],
      ['/h/.angelia/private', 'lies in'],
      ['/h/.angelia', 'holds'],
    ] as const) {
      expect(() => compileCodexLaunch(tableOf(profile('a', { readDirs: ['/h/notes', dir] })), 'a', FACTS), dir).toThrow(
        expect.objectContaining({
          app: expect.objectContaining({ code: 'unsafe-reach', where: 'profiles.a.read_dirs[1]', message: expect.stringContaining(word) }),
        }),
      );
    }
    const ws = compileCodexLaunch(tableOf(profile('a', { readDirs: ['/h/.angelia/workspace/_shared/docs'] })), 'a', FACTS);
    expect(ws.filesystem['/h/.angelia/workspace/_shared/docs']).toBe('read');
  });
});

describe("compile's plan text shows the grants", () => {
  it("lists :minimal, each read grant with its source, the profile's read grants, and the starter entries not given", () => {
    const exists = (p: string): boolean => p !== '/h/.nvm' && p !== '/h/.pyenv';
    const t = tableOf(profile('a', { readDirs: ['/h/.local/bin', '/h/.nvm', '/h/.pyenv'], readDirsStarter: true }));
    const text = planText(compileCodexLaunch(t, 'a', { ...FACTS, exists }), 'acceptEdits');
    expect(text).toContain('built from grants alone (extends nothing)');
    expect(text).toMatch(/read +:minimal +the system folders commands need/);
    expect(text).toMatch(/read +\/h\/\.local\/bin +read_dirs \(starter set: a toolchain in your home\)/);
    expect(text).toContain('read grants the profile names: /h/.local/bin');
    expect(text).toContain(
      'not given (nothing there now; given at the first start after it appears): /h/.nvm (read_dirs (starter set: a toolchain in your home))',
    );
    expect(text).toContain('/h/.pyenv');
    expect(text).not.toContain(':slash_tmp');
    expect(text).toContain('variables passed to its commands on purpose (env): none (besides the plain ones: PATH, HOME, LANG, …)');
    expect(planText(compileCodexLaunch(t, 'a', { ...FACTS, exists }), 'acceptEdits', ['GH_TOKEN', 'PGHOST'])).toContain(
      'variables passed to its commands on purpose (env): GH_TOKEN, PGHOST (besides',
    );
  });
});
