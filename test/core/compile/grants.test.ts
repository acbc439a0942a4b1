/**
 * The grant check (compile/grants.ts `checkGrants`), pure over a fake filesystem: tables of grants that
 * any agent could redirect (a symbolic link on the path, nested in the profile's own writable folder or
 * in another profile's, missing under a writable folder), grants that are fine, restrictions an agent
 * could escape by renaming, and what runs outside the sandbox (bin, PATH, MCP commands and args).
 */
import { describe, expect, it } from 'vitest';
import { walkPath, type FsView } from '../../../src/main/core/compile/pathWalk';
import {
  agentWritable,
  checkGrants,
  fullAccessNote,
  grantNotes,
  grantsOf,
  problemText,
  refuseGrants,
  type GrantFacts,
  type LaunchExec,
} from '../../../src/main/core/compile/grants';
import { keyPath } from '../../../src/main/core/table/errors';
import type { Capability, LoadedTable, ResolvedProfile } from '../../../src/main/core/table/load';
import { profile, tableOf } from './fixture';

/** A fake filesystem: folders (every prefix of a listed path is a folder), files and links. */
function fakeFs(entries: { dirs?: string[]; files?: string[]; links?: Record<string, string> }): FsView {
  const kinds = new Map<string, 'dir' | 'file' | 'link'>();
  const addDirs = (p: string): void => {
    const parts = p.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) kinds.set(`/${parts.slice(0, i).join('/')}`, 'dir');
  };
  for (const d of entries.dirs ?? []) addDirs(d);
  for (const f of entries.files ?? []) {
    addDirs(f.slice(0, f.lastIndexOf('/')));
    kinds.set(f, 'file');
  }
  for (const l of Object.keys(entries.links ?? {})) {
    addDirs(l.slice(0, l.lastIndexOf('/')));
    kinds.set(l, 'link');
  }
  return {
    kind: (p) => (p === '/' ? 'dir' : (kinds.get(p) ?? null)),
    readlink: (p) => entries.links?.[p] ?? null,
  };
}

const FACTS: GrantFacts = { home: '/h', stateDir: '/h/.angelia', workspace: '/h/.angelia/workspace', codexHome: '/h/.codex', platform: 'linux' };
const BASE_DIRS = [
  '/h/.angelia/workspace/_common',
  '/h/.angelia/workspace/_shared',
  '/h/.angelia/workspace/_capabilities',
  '/h/.angelia/compiled',
  '/h/.angelia/private',
];

function withCaps(table: LoadedTable, caps: Capability[]): LoadedTable {
  return { ...table, capabilities: Object.fromEntries(caps.map((c) => [c.name, c])) };
}

const keys = (problems: ReturnType<typeof checkGrants>): string[] => problems.map((p) => keyPath(p.key));

describe('walkPath', () => {
  it('resolves links of the existing part, records each link and every location met, and appends the missing rest', () => {
    const fs = fakeFs({ dirs: ['/real/x'], links: { '/w/l': '/real', '/w/rel': '../real/x' } });
    expect(walkPath('/w/l/x/missing/more', fs)).toEqual({ real: '/real/x/missing/more', links: ['/w/l'], visited: ['/w', '/w/l', '/real', '/real/x'] });
    expect(walkPath('/w/rel', fs).real).toBe('/real/x');
    expect(walkPath('/loop', fakeFs({ links: { '/loop': '/loop' } })).real).toBeNull();
  });
});

describe('checkGrants: grants an agent could redirect', () => {
  const coder = (over: Partial<ResolvedProfile> = {}) => profile('coder', { cwd: '/w/coder', ...over });
  const cases: Array<{ name: string; table: LoadedTable; fs: FsView; refused: string[]; why?: RegExp }> = [
    {
      name: 'fine: cwd and an add_dir beside it, nothing nested, no links',
      table: tableOf(coder({ addDirs: ['/data/build'] }), profile('writer', { cwd: '/w/writer' })),
      fs: fakeFs({ dirs: ['/w/coder', '/w/writer', '/data/build', ...BASE_DIRS] }),
      refused: [],
    },
    {
      name: 'fine: a missing add_dir outside every writable folder',
      table: tableOf(coder({ addDirs: ['/data/later'] })),
      fs: fakeFs({ dirs: ['/w/coder', '/data', ...BASE_DIRS] }),
      refused: [],
    },
    {
      name: 'fine: two profiles given the same folder (neither can rename it: its parent is not granted)',
      table: tableOf(coder({ addDirs: ['/shared'] }), profile('writer', { cwd: '/w/writer', addDirs: ['/shared'] })),
      fs: fakeFs({ dirs: ['/w/coder', '/w/writer', '/shared', ...BASE_DIRS] }),
      refused: [],
    },
    {
      name: "an add_dir nested in the profile's own folder (existing)",
      table: tableOf(coder({ addDirs: ['/w/coder/sub/build'] })),
      fs: fakeFs({ dirs: ['/w/coder/sub/build', ...BASE_DIRS] }),
      refused: ['profiles.coder.add_dirs[0]'],
      why: /lies in \/w\/coder, which this profile's own agent can write/,
    },
    {
      name: "an add_dir missing under the profile's own folder (the agent could create it as a link)",
      table: tableOf(coder({ addDirs: ['/w/coder/out'] })),
      fs: fakeFs({ dirs: ['/w/coder', ...BASE_DIRS] }),
      refused: ['profiles.coder.add_dirs[0]'],
      why: /lies in \/w\/coder/,
    },
    {
      name: "an add_dir nested in another profile's add_dir",
      table: tableOf(coder({ addDirs: ['/data/build'] }), profile('writer', { cwd: '/w/writer', addDirs: ['/data'] })),
      fs: fakeFs({ dirs: ['/w/coder', '/w/writer', '/data/build', ...BASE_DIRS] }),
      refused: ['profiles.coder.add_dirs[0]'],
      why: /profile writer's agent can write \(profile writer's add_dir \(profiles\.writer\.add_dirs\[0\]\)\)/,
    },
    {
      name: "a profile's folder nested in another profile's folder (and in a full-access profile's)",
      table: tableOf(coder(), profile('outer', { cwd: '/w', sandbox: false })),
      fs: fakeFs({ dirs: ['/w/coder', ...BASE_DIRS] }),
      refused: ['profiles.coder.cwd'],
    },
    {
      name: 'an add_dir nested in a folder of a plan-mode profile (a mode change needs one compile of that profile only)',
      table: tableOf(coder({ addDirs: ['/w/reader/docs'] }), profile('reader', { cwd: '/w/reader', permissionMode: 'plan' })),
      fs: fakeFs({ dirs: ['/w/coder', '/w/reader/docs', ...BASE_DIRS] }),
      refused: ['profiles.coder.add_dirs[0]'],
    },
    {
      name: 'an add_dir through a symbolic link (to a folder that is fine)',
      table: tableOf(coder({ addDirs: ['/data/link'] })),
      fs: fakeFs({ dirs: ['/w/coder', '/srv/real', ...BASE_DIRS], links: { '/data/link': '/srv/real' } }),
      refused: ['profiles.coder.add_dirs[0]'],
      why: /goes through the symbolic link \/data\/link \(now leading to \/srv\/real\)/,
    },
    {
      name: 'an add_dir whose link leads into the state folder (the escape chain, left behind)',
      table: tableOf(coder({ addDirs: ['/w/coder/sub/build'] })),
      fs: fakeFs({ dirs: ['/w/coder/sub', ...BASE_DIRS], links: { '/w/coder/sub/build': '/h/.angelia/compiled' } }),
      refused: ['profiles.coder.add_dirs[0]'],
      why: /lies in Angelia's private state/,
    },
    {
      name: 'a cwd through a system link (/bin -> usr/bin style)',
      table: tableOf(coder({ cwd: '/lnk/coder' })),
      fs: fakeFs({ dirs: ['/usr/coder', ...BASE_DIRS], links: { '/lnk': 'usr' } }),
      refused: ['profiles.coder.cwd'],
      why: /symbolic link \/lnk/,
    },
    {
      name: 'a grant inside the state folder (not workspace/) or a Codex home',
      table: tableOf(coder({ addDirs: ['/h/.angelia/cache/x', '/h/.codex/skills'] })),
      fs: fakeFs({ dirs: ['/w/coder', '/h/.angelia/cache/x', '/h/.codex/skills', ...BASE_DIRS] }),
      refused: ['profiles.coder.add_dirs[0]', 'profiles.coder.add_dirs[1]'],
      why: /\/h\/.angelia\/cache\/x lies in Angelia's private state/,
    },
    {
      // Refused at every start, so it never counts as writable: the grants inside it are not named too.
      name: 'a directory capability holding home (so the state folder and the Codex home), named alone',
      table: withCaps(tableOf(coder({ allowed: ['home'] })), [{ name: 'home', kind: 'directory', path: '/h', when: null }]),
      fs: fakeFs({ dirs: ['/w/coder', ...BASE_DIRS] }),
      refused: ['capabilities.home.path'],
      why: /\/h is or holds Angelia's private state/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const problems = checkGrants(c.table, FACTS, c.fs);
      expect(keys(problems)).toEqual(c.refused);
      if (c.why) expect(problems[0]?.message).toMatch(c.why);
      for (const p of problems) expect(p.fix.length).toBeGreaterThan(10);
    });
  }

  it("a directory capability inside the profile's folder is refused at capabilities.<name>.path", () => {
    const table = withCaps(tableOf(coder({ allowed: ['data'] })), [{ name: 'data', kind: 'directory', path: '/w/coder/shared/data', when: null }]);
    const problems = checkGrants(table, FACTS, fakeFs({ dirs: ['/w/coder/shared/data', ...BASE_DIRS] }));
    expect(keys(problems)).toEqual(['capabilities.data.path']);
    expect(problems[0]?.fix).toMatch(/move \/w\/coder\/shared\/data out of \/w\/coder/);
  });

  it("read_dirs (when the table has them) are grants too: one inside another profile's folder is refused", () => {
    const reader = { ...coder(), readDirs: ['/w/writer/notes'] } as ResolvedProfile;
    const problems = checkGrants(
      tableOf(reader, profile('writer', { cwd: '/w/writer' })),
      FACTS,
      fakeFs({ dirs: ['/w/coder', '/w/writer/notes', ...BASE_DIRS] }),
    );
    expect(keys(problems)).toEqual(['profiles.coder.read_dirs[0]']);
    expect(problems[0]?.message).toMatch(/this read grant would open wherever the link leads/);
  });

  it('_common/ inside a profile folder that holds the workspace is refused for every profile given it', () => {
    const table = tableOf(coder(), profile('ws', { cwd: '/h/.angelia/workspace', isolated: true }));
    expect(keys(checkGrants(table, FACTS, fakeFs({ dirs: ['/w/coder', ...BASE_DIRS] })))).toEqual([
      'profiles.coder.isolated',
      'profiles.coder.shared_write',
      'profiles.coder.shared_write',
      'profiles.ws.shared_write',
      'profiles.ws.shared_write',
    ]);
  });

  it('checks only the profiles asked for, against the folders every profile writes', () => {
    const table = tableOf(coder({ addDirs: ['/data/build'] }), profile('writer', { cwd: '/w/writer', addDirs: ['/data', '/w/writer/x'] }));
    const fs = fakeFs({ dirs: ['/w/coder', '/w/writer/x', '/data/build', ...BASE_DIRS] });
    expect(keys(checkGrants(table, FACTS, fs, { profiles: ['coder'] }))).toEqual(['profiles.coder.add_dirs[0]']);
    expect(keys(checkGrants(table, FACTS, fs, { profiles: ['writer'] }))).toEqual(['profiles.writer.add_dirs[1]']);
  });
});

describe('checkGrants: restrictions the agent could escape by renaming a folder', () => {
  const secret = (path: string): Capability => ({ name: 'sec', kind: 'directory', path, when: null });
  it("a denied folder two levels inside the profile's folder is refused; one level inside is fine (a mount point)", () => {
    const deep = withCaps(tableOf(profile('coder', { cwd: '/w/coder', denied: ['sec'] })), [secret('/w/coder/a/secret')]);
    const problems = checkGrants(deep, FACTS, fakeFs({ dirs: ['/w/coder/a/secret', ...BASE_DIRS] }));
    expect(keys(problems)).toEqual(['profiles.coder.cwd']);
    expect(problems[0]?.message).toMatch(
      /\/w\/coder\/a\/secret, which this profile may not read \(denied capability sec\), lies 2 folders deep in \/w\/coder .* rename \/w\/coder\/a/,
    );
    const shallow = withCaps(tableOf(profile('coder', { cwd: '/w/coder', denied: ['sec'] })), [secret('/w/coder/secret')]);
    expect(checkGrants(shallow, FACTS, fakeFs({ dirs: ['/w/coder/secret', ...BASE_DIRS] }))).toEqual([]);
  });

  it('a denied path one level inside that is a symbolic link is refused (the agent could point it elsewhere)', () => {
    const table = withCaps(tableOf(profile('coder', { cwd: '/w/coder', denied: ['sec'] })), [secret('/w/coder/secret')]);
    const problems = checkGrants(table, FACTS, fakeFs({ dirs: ['/w/coder', '/srv/keys', ...BASE_DIRS], links: { '/w/coder/secret': '/srv/keys' } }));
    expect(keys(problems)).toEqual(['profiles.coder.cwd']);
    expect(problems[0]?.message).toMatch(/goes through the symbolic link \/w\/coder\/secret/);
  });

  it('a credential two levels inside an add_dir (~/.pi/agent/auth.json in ~/.pi) is refused; launch files one level in are fine', () => {
    const table = tableOf(profile('coder', { cwd: '/w/coder', addDirs: ['/h/.pi'] }));
    const problems = checkGrants(table, FACTS, fakeFs({ dirs: ['/w/coder/.claude', '/h/.pi/agent', ...BASE_DIRS] }));
    expect(problems.map((p) => `${keyPath(p.key)} ${p.path}`)).toEqual([
      'profiles.coder.add_dirs[0] /h/.pi/agent/auth.json',
      'profiles.coder.add_dirs[0] /h/.pi/agent/sessions',
    ]);
  });
});

describe('checkGrants: what runs outside the sandbox', () => {
  const exec =
    (over: Partial<LaunchExec> = {}): (() => LaunchExec) =>
    () => ({ codex: '/opt/codex/bin/codex', searchPath: ['/h/.angelia/bin', '/usr/bin'], mcpCwd: '/h', ...over });
  const mcp = (over: Partial<Extract<Capability, { kind: 'mcp' }>> = {}): Capability => ({
    name: 'gh',
    kind: 'mcp',
    command: 'npx',
    args: ['-y', 'server-github'],
    url: null,
    env: [],
    when: null,
    secrets: [],
    ...over,
  });
  const fsBase = {
    dirs: ['/w/coder', '/w/writer', '/h/.angelia/bin', ...BASE_DIRS],
    files: ['/opt/codex/bin/codex', '/usr/bin/npx', '/w/writer/tools/codex', '/w/writer/bin/npx', '/w/writer/server.js'],
  };
  const table = (over: Partial<ResolvedProfile> = {}, caps: Capability[] = []) =>
    withCaps(tableOf(profile('coder', { cwd: '/w/coder', allowed: caps.map((c) => c.name), ...over }), profile('writer', { cwd: '/w/writer' })), caps);

  it('fine: bin, PATH, MCP command and args outside every writable folder', () => {
    expect(checkGrants(table({}, [mcp({ args: ['/usr/bin/npx'] })]), FACTS, fakeFs(fsBase), { exec: exec() })).toEqual([]);
    // Angelia installed beside the profiles' folders, their state under it (as the tests run it): fine.
    expect(
      checkGrants(table(), FACTS, fakeFs(fsBase), { exec: exec({ program: ['/usr/bin/node', '/w/bin', '/w/out', '/w/node_modules', '/w/package.json'] }) }),
    ).toEqual([]);
  });

  const cases: Array<{
    name: string;
    over?: Partial<ResolvedProfile>;
    caps?: Capability[];
    exec: Partial<LaunchExec>;
    links?: Record<string, string>;
    refused: string[];
    why: RegExp;
  }> = [
    {
      name: "bin in another profile's folder",
      over: { bin: '/w/writer/tools/codex' },
      exec: { codex: '/w/writer/tools/codex' },
      refused: ['profiles.coder.bin'],
      why: /the Codex executable \(bin\) \/w\/writer\/tools\/codex lies in \/w\/writer, which profile writer's folder \(profiles\.writer\.cwd\) can write/,
    },
    {
      name: 'bin through a link that lies in a writable folder',
      over: { bin: '/opt/codex-link' },
      exec: { codex: '/opt/codex-link' },
      links: { '/opt/codex-link': '/w/writer/tools/codex' },
      refused: ['profiles.coder.bin'],
      why: /lies in \/w\/writer/,
    },
    {
      name: 'the bundled Codex inside a writable folder',
      exec: { codex: '/w/coder/node_modules/codex' },
      refused: ['profiles.coder'],
      why: /the bundled Codex executable/,
    },
    {
      name: 'a PATH folder inside a writable folder',
      exec: { searchPath: ['/usr/bin', '/w/writer/bin'] },
      refused: ['profiles.coder'],
      why: /PATH .* holds \/w\/writer\/bin/,
    },
    {
      name: 'a relative PATH entry',
      exec: { searchPath: ['node_modules/.bin', '/usr/bin'] },
      refused: ['profiles.coder'],
      why: /relative folder "node_modules\/.bin"/,
    },
    {
      name: 'an MCP command found on PATH through a writable folder first',
      caps: [mcp()],
      exec: { searchPath: ['/usr/local/bin'] },
      links: { '/usr/local/bin/npx': '/w/writer/bin/npx' },
      refused: ['capabilities.gh.command'],
      why: /the command of MCP capability gh \/usr\/local\/bin\/npx lies in \/w\/writer/,
    },
    {
      name: 'an MCP command given as an absolute path in a writable folder',
      caps: [mcp({ command: '/w/writer/bin/npx' })],
      exec: {},
      refused: ['capabilities.gh.command'],
      why: /lies in \/w\/writer/,
    },
    {
      name: 'an MCP command relative to the folder servers start in, when that folder is writable',
      caps: [mcp({ command: './server' })],
      exec: { mcpCwd: '/w/writer' },
      refused: ['capabilities.gh'],
      why: /MCP servers start in \/w\/writer/,
    },
    {
      name: 'an MCP argument in a writable folder',
      caps: [mcp({ command: 'node', args: ['/w/writer/server.js'] })],
      exec: {},
      refused: ['capabilities.gh.args[0]'],
      why: /an argument of MCP capability gh/,
    },
    {
      name: "Angelia's install inside a profile's folder (its bin/angelia.js runs outside the sandbox)",
      exec: {
        program: ['/usr/bin/node', '/w/writer/angelia/bin', '/w/writer/angelia/out', '/w/writer/angelia/node_modules', '/w/writer/angelia/package.json'],
      },
      refused: ['profiles.coder'],
      why: /^Angelia's own program \/w\/writer\/angelia\/bin lies in \/w\/writer, which profile writer's folder \(profiles\.writer\.cwd\) can write/,
    },
    {
      name: "a profile's folder inside Angelia's node_modules",
      over: { cwd: '/opt/angelia/node_modules/x' },
      exec: { program: ['/usr/bin/node', '/opt/angelia/bin', '/opt/angelia/out', '/opt/angelia/node_modules', '/opt/angelia/package.json'] },
      refused: ['profiles.coder'],
      why: /^Angelia's own program \/opt\/angelia\/node_modules holds \/opt\/angelia\/node_modules\/x/,
    },
    {
      name: 'the Node executable in a writable folder',
      exec: { program: ['/w/coder/.nvm/bin/node'] },
      refused: ['profiles.coder'],
      why: /Angelia's own program \/w\/coder\/.nvm\/bin\/node lies in \/w\/coder/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const problems = checkGrants(table(c.over, c.caps), FACTS, fakeFs({ ...fsBase, links: c.links }), { profiles: ['coder'], exec: exec(c.exec) });
      expect(keys(problems)).toEqual(c.refused);
      expect(problems[0]?.message).toMatch(c.why);
    });
  }
});

describe('grantsOf, agentWritable, fullAccessNote, refuseGrants', () => {
  it("lists the grants of a profile by table field; agent-writable places include Angelia's caches and mailboxes", () => {
    const p = profile('coder', { cwd: '/w/coder', addDirs: ['/d'], sharedWrite: true });
    expect(grantsOf({ capabilities: {} }, p, FACTS).map((g) => `${keyPath(g.key)} ${g.access} ${g.path}`)).toEqual([
      'profiles.coder.cwd write /w/coder',
      'profiles.coder.add_dirs[0] write /d',
      'profiles.coder.isolated write /h/.angelia/workspace/_common',
      'profiles.coder.shared_write write /h/.angelia/workspace/_shared',
      'profiles.coder.shared_write write /h/.angelia/workspace/_capabilities',
    ]);
    expect(agentWritable(tableOf(p), FACTS, fakeFs({})).map((w) => w.path)).toContain('/h/.angelia/cache/codex');
  });

  it('says plainly when another profile runs with sandbox = false', () => {
    expect(fullAccessNote(tableOf(profile('a'), profile('b', { sandbox: false })), 'a')).toMatch(
      /^profile b runs with sandbox = false: such an agent can change any file/,
    );
    expect(fullAccessNote(tableOf(profile('a'), profile('b', { sandbox: false })), 'b')).toBeNull();
  });

  it('refuseGrants throws an AppFailure naming the field, the table and the fix', () => {
    const problems = checkGrants(tableOf(profile('coder', { cwd: '/w/coder', addDirs: ['/w/coder/sub'] })), FACTS, fakeFs({ dirs: ['/w/coder/sub'] }));
    expect(problemText(problems[0]!)).toMatch(/^profiles\.coder\.add_dirs\[0\]: \/w\/coder\/sub lies in \/w\/coder/);
    expect(() => refuseGrants(problems, '/t.toml', 'unsafe-grant')).toThrow(
      expect.objectContaining({
        app: expect.objectContaining({
          code: 'unsafe-grant',
          where: '/t.toml: profiles.coder.add_dirs[0]',
          fix: expect.stringMatching(/^move \/w\/coder\/sub out of \/w\/coder/),
        }),
      }),
    );
    expect(() => refuseGrants([], '/t.toml', 'unsafe-grant')).not.toThrow();
  });
});

describe('checkGrants: the read_dirs starter set', () => {
  it('a starter entry through a symbolic link is refused at profiles.<name>.read_dirs, with the fix to write read_dirs out', () => {
    const p = { ...profile('coder', { cwd: '/w/coder' }), readDirs: ['/h/.local/bin', '/h/.nvm'], readDirsStarter: true } as ResolvedProfile;
    const problems = checkGrants(
      tableOf(p),
      FACTS,
      fakeFs({ dirs: ['/w/coder', '/h/.local/bin', '/dotfiles/nvm', ...BASE_DIRS], links: { '/h/.nvm': '/dotfiles/nvm' } }),
    );
    expect(keys(problems)).toEqual(['profiles.coder.read_dirs']);
    expect(problems[0]?.fix).toMatch(/name the real path \/dotfiles\/nvm in profiles\.coder\.read_dirs/);
  });
});

describe('checkGrants: skills given are read grants', () => {
  const skill: Capability = {
    name: 'checkout',
    kind: 'skill',
    path: '/h/.angelia/workspace/_capabilities/skills/checkout',
    when: null,
    secrets: ['/h/secret/checkout.key'],
  };
  const fs = fakeFs({
    dirs: ['/w/editor', '/w/coder', '/h/.angelia/workspace/_capabilities/skills/checkout', ...BASE_DIRS],
    files: ['/h/secret/checkout.key'],
  });

  it('a skill given to the shared_write profile that edits its folder is refused (its own agent could redirect it)', () => {
    const table = withCaps(tableOf(profile('editor', { cwd: '/w/editor', sharedWrite: true, allowed: ['checkout'] })), [skill]);
    const problems = checkGrants(table, FACTS, fs);
    expect(keys(problems)).toEqual(['capabilities.checkout.path']);
    expect(problems[0]?.message).toMatch(/lies in \/h\/.angelia\/workspace\/_capabilities, which this profile writes .* so it reads it anyway/);
  });

  it("a skill given to another profile, in the shared_write profile's folder, is a note (the trust shared_write is), not a refusal", () => {
    const table = withCaps(tableOf(profile('editor', { cwd: '/w/editor', sharedWrite: true }), profile('coder', { cwd: '/w/coder', allowed: ['checkout'] })), [
      skill,
    ]);
    expect(checkGrants(table, FACTS, fs)).toEqual([]);
    expect(grantNotes(table, FACTS, fs, 'coder')).toEqual([
      expect.stringMatching(
        /^\/h\/.angelia\/workspace\/_capabilities\/skills\/checkout \(skill checkout\) lies in .*_capabilities, which profile editor's _capabilities\/ .* may edit: that agent could also replace it with a symbolic link/,
      ),
    ]);
  });

  it('a skill (or its secret) through a symbolic link is refused at capabilities.<name>.path / .secrets[i]', () => {
    const table = withCaps(tableOf(profile('coder', { cwd: '/w/coder', allowed: ['checkout'] })), [skill]);
    const linked = fakeFs({
      dirs: ['/w/coder', '/h/.angelia/workspace/_capabilities/skills/checkout', '/srv/keys', ...BASE_DIRS],
      links: { '/h/secret': '/srv/keys' },
    });
    expect(keys(checkGrants(table, FACTS, linked))).toEqual(['capabilities.checkout.secrets[0]']);
  });
});
