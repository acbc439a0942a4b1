/**
 * The state-folder floor and the bubblewrap reshaping, on pure facts (no disk): every private name of
 * the state folder is denied whether or not it exists, whatever else is found there at launch too, and
 * never a `<state>/*` glob; entries Codex 0.169.0's bubblewrap cannot mount (several below one
 * missing folder, a deny inside a deny) are reshaped without opening anything. The real-sandbox side is
 * test/integration/sandbox-state.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { bwrapSafeEntries, foldRules } from '../../../src/main/core/compile/entries';
import type { CompileFacts, FsRule } from '../../../src/main/core/compile/facts';
import { isTransient, STATE_PRIVATE, STATE_PRIVATE_FOLDERS } from '../../../src/main/core/compile/floor';
import { PRIVATE_DIR, PRIVATE_FILES } from '../../../src/main/core/instance/paths';
import { profilePolicy } from '../../../src/main/core/compile/policy';
import { wantDeny } from '../../../src/main/core/compile/rules';
import { FACTS, fixtureTable, profile, tableOf } from './fixture';

/** An `exists` that knows exactly these paths and their ancestors. */
function onDisk(...paths: string[]): (p: string) => boolean {
  const all = new Set<string>(['/']);
  for (const p of paths) for (let q = p; q !== '/'; q = q.slice(0, q.lastIndexOf('/')) || '/') all.add(q);
  return (p) => all.has(p);
}

const deny = (path: string, source = 'test'): FsRule => ({ path, access: 'deny', source, folder: true });
const read = (path: string): FsRule => ({ path, access: 'read', source: 'test read', folder: true });
const write = (path: string): FsRule => ({ path, access: 'write', source: 'test write', folder: true });

describe("the state folder: everything but workspace/ is Angelia's private state", () => {
  const coder = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS);

  it('denies every private name, existing or not, in the launch and in settings.json', () => {
    const settings = wantDeny(profilePolicy(fixtureTable('acceptEdits'), fixtureTable('acceptEdits').profiles.coder!, FACTS));
    for (const rel of [
      'env',
      'private',
      'api.token',
      'sessions.json',
      'sessions.json.bak',
      'compiled',
      'audit.jsonl',
      'approvals',
      'exports',
      'children.json',
      'logs',
      'media',
    ]) {
      expect(STATE_PRIVATE).toContain(rel);
      expect(coder.filesystem[`/h/.angelia/${rel}`], rel).toBe('deny');
      expect(coder.sources[`/h/.angelia/${rel}`]).toBe("Angelia's private state");
      expect(settings).toContain(`Read(/h/.angelia/${rel}${['private', 'compiled', 'approvals', 'exports', 'logs', 'media'].includes(rel) ? '/**' : ''})`);
    }
    // The folder of Angelia's own files is denied whole and made before a launch; its files' old names stay denied.
    expect(STATE_PRIVATE_FOLDERS).toContain(PRIVATE_DIR);
    for (const name of PRIVATE_FILES) expect(STATE_PRIVATE, name).toContain(name);
    // cache/: its only entry codex/ is denied but the profile's own cache (no deny inside a deny, entries.ts)
    expect(coder.filesystem['/h/.angelia/cache/codex']).toBe('deny');
    expect(coder.filesystem['/h/.angelia/cache']).toBeUndefined();
  });

  it('leaves the workspace reachable: the own folder writable, _shared/ and _capabilities/ readable', () => {
    expect(coder.filesystem['/h/.angelia']).toBeUndefined();
    expect(coder.filesystem['/h/.angelia/workspace']).toBeUndefined();
    expect(coder.filesystem['/h/.angelia/workspace/_shared']).toBe('read');
    expect(coder.filesystem['/h/.angelia/workspace/_capabilities']).toBe('read');
    expect(coder.writableRoots).toContain('/h/.angelia/workspace/profiles/coder');
  });

  it('adds no glob on any platform: Codex fails a command when a globbed path vanishes mid-build', () => {
    expect(Object.keys(coder.filesystem).some((p) => p.includes('*'))).toBe(false);
    const mac = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, platform: 'darwin' });
    expect(Object.keys(mac.filesystem).some((p) => p.includes('*'))).toBe(false);
    expect(coder.warnings).toEqual([]);
  });

  it("never denies transient files found at launch (an older Angelia's sessions lock and write-file-atomic temps, verify's socket)", () => {
    const facts: CompileFacts = {
      ...FACTS,
      stateEntries: [
        'sessions.json.lock',
        'sessions.json.1234567890',
        'sessions.json.bak.42',
        'children.json.7',
        'v-0a1b2c3d.sock',
        'notes.12',
        'sessions.json.12a',
      ],
    };
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', facts);
    for (const name of ['sessions.json.lock', 'sessions.json.1234567890', 'sessions.json.bak.42', 'children.json.7', 'v-0a1b2c3d.sock']) {
      expect(isTransient(name), name).toBe(true);
      expect(launch.filesystem[`/h/.angelia/${name}`], name).toBeUndefined();
    }
    for (const name of ['notes.12', 'sessions.json.12a']) expect(launch.filesystem[`/h/.angelia/${name}`], name).toBe('deny');
  });

  it('denies whatever else is in the state folder at launch, never in settings.json (the guard stays stable)', () => {
    const facts: CompileFacts = { ...FACTS, stateEntries: ['cache', 'workspace', 'env', 'new-store', 'sessions.json.7f3a.tmp', 'notes'] };
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', facts);
    for (const name of ['new-store', 'sessions.json.7f3a.tmp', 'notes']) {
      expect(launch.filesystem[`/h/.angelia/${name}`], name).toBe('deny');
      expect(launch.sources[`/h/.angelia/${name}`]).toBe("Angelia's private state");
    }
    expect(launch.filesystem['/h/.angelia/workspace']).toBeUndefined();
    expect(launch.filesystem['/h/.angelia/cache']).toBeUndefined();
    const table = fixtureTable('acceptEdits');
    expect(wantDeny(profilePolicy(table, table.profiles.coder!, facts))).toEqual(wantDeny(profilePolicy(table, table.profiles.coder!, FACTS)));
  });

  it('a state entry that holds the profile folder is not denied, and compile says why', () => {
    const t = tableOf(profile('odd', { cwd: '/h/.angelia/mine/odd' }));
    const launch = compileCodexLaunch(t, 'odd', { ...FACTS, stateEntries: ['mine', 'other'] });
    expect(launch.filesystem['/h/.angelia/mine']).toBeUndefined();
    expect(launch.filesystem['/h/.angelia/other']).toBe('deny');
    expect(launch.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/profiles\.odd\.cwd: \/h\/\.angelia\/mine\/odd lies in Angelia's state folder outside workspace\//)]),
    );
  });

  it('the API socket is never denied by path (Codex would put a plain file there during an escalation)', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, platform, stateEntries: ['api.sock', 'api.token'] });
      expect(launch.filesystem['/h/.angelia/api.sock']).toBeUndefined();
      expect(launch.filesystem['/h/.angelia/api.token']).toBe('deny');
    }
  });
});

describe('bwrapSafeEntries: shapes bubblewrap cannot mount', () => {
  it('several entries below one missing folder become one deny entry on that folder', () => {
    const folded = foldRules(
      [deny('/h/.grok/auth.json', 'cred'), deny('/h/.grok/sessions', 'cli'), deny('/h/.netrc'), deny('/h/.pi/agent/auth.json'), deny('/h/.pi/agent/sessions')],
      false,
    );
    const out = bwrapSafeEntries(folded, onDisk('/h'));
    expect(out.filesystem).toEqual({ '/h/.grok': 'deny', '/h/.netrc': 'deny', '/h/.pi': 'deny' });
    expect(out.sources['/h/.grok']).toBe('cred');
  });

  it('entries below an existing folder stay as they are, even when they are missing', () => {
    const folded = foldRules([deny('/h/.claude/projects'), deny('/h/.claude/history.jsonl'), deny('/h/.ssh')], false);
    expect(bwrapSafeEntries(folded, onDisk('/h/.claude', '/h/.ssh')).filesystem).toEqual(folded.filesystem);
  });

  it('groups at the first missing folder, however deep the entries are', () => {
    const folded = foldRules([deny('/h/.pi/agent/auth.json'), deny('/h/.pi/agent/sessions')], false);
    expect(bwrapSafeEntries(folded, onDisk('/h/.pi')).filesystem).toEqual({ '/h/.pi/agent': 'deny' });
  });

  it('a read entry and a deny entry below one missing folder become a deny; two reads stay a read', () => {
    expect(bwrapSafeEntries(foldRules([read('/w/.claude'), deny('/w/.claude/x')], false), onDisk('/w')).filesystem).toEqual({ '/w/.claude': 'deny' });
    expect(bwrapSafeEntries(foldRules([read('/w/sec/a'), read('/w/sec/b')], false), onDisk('/w')).filesystem).toEqual({ '/w/sec': 'read' });
  });

  it('a missing write entry is not grouped (Codex ignores it), and a lone missing entry is left to Codex', () => {
    const folded = foldRules([write('/w/sec/a'), deny('/w/sec/b'), deny('/h/.grok/auth.json')], false);
    expect(bwrapSafeEntries(folded, onDisk('/w', '/h')).filesystem).toEqual(folded.filesystem);
  });

  it('never merges into CODEX_HOME or a folder the profile works in', () => {
    const folded = foldRules([deny('/srv/ch/auth.json'), deny('/srv/ch/sessions'), deny('/p/new/a'), deny('/p/new/b')], false);
    const out = bwrapSafeEntries(folded, onDisk('/srv', '/p'), ['/srv/ch', '/p/new/a']);
    expect(out.filesystem).toEqual(folded.filesystem);
  });

  it('drops a deny inside a deny, keeps a deny inside a write inside a deny, and keeps globs', () => {
    const folded = foldRules(
      [deny('/s/cache'), deny('/s/cache/codex'), write('/s/cache/codex/h1'), deny('/s/cache/codex/h1/x'), { ...deny('/s/*'), glob: true, folder: false }],
      false,
    );
    const out = bwrapSafeEntries(folded, () => true);
    expect(out.filesystem).toEqual({ '/s/*': 'deny', '/s/cache': 'deny', '/s/cache/codex/h1': 'write', '/s/cache/codex/h1/x': 'deny' });
    expect(Object.keys(out.sources)).toEqual(Object.keys(out.filesystem));
  });

  it('applies on Linux compiles only, with the live existence check of the facts', () => {
    const facts: CompileFacts = { ...FACTS, exists: onDisk('/h/.angelia/workspace', '/h/.codex/config.toml', '/h/.ssh') };
    const linux = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', facts);
    expect(linux.filesystem['/h/.grok']).toBe('deny');
    expect(linux.filesystem['/h/.grok/auth.json']).toBeUndefined();
    expect(linux.filesystem['/h/.config']).toBe('deny');
    expect(linux.filesystem['/h/.claude']).toBe('deny');
    expect(linux.filesystem['/h/.codex/auth.json']).toBe('deny');
    expect(linux.filesystem['/h/.ssh']).toBe('deny');
    const mac = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...facts, platform: 'darwin' });
    expect(mac.filesystem['/h/.grok']).toBeUndefined();
    expect(mac.filesystem['/h/.grok/auth.json']).toBe('deny');
  });
});
