/**
 * What a newly accepted table takes away from a running launch (compile/entries.ts `lostAccess`,
 * chats/sight.ts `sightLost`): any path the running entries let a command read or write that the new
 * entries do not. A running chat restarts before its next turn for it (docs/security-model.md
 * "Filesystem: private by default").
 */
import { describe, expect, it } from 'vitest';
import type { LaunchPlan } from '../../../src/main/core/launch/plan';
import { sightLost } from '../../../src/main/core/chats/sight';
import { compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { lostAccess } from '../../../src/main/core/compile/entries';
import { mailboxDirFor } from '../../../src/main/core/launch/mailbox';
import { FACTS, profile, tableOf } from './fixture';

describe('lostAccess', () => {
  it('names a grant gone, a deny new inside a grant, a write made read; nothing for what was never visible', () => {
    const before = { '/h/a': 'read', '/h/b': 'write', '/h/c': 'write', '/s': 'deny' } as const;
    expect(lostAccess(before, { '/h/b': 'write', '/h/c': 'write', '/s': 'deny' })).toEqual(['/h/a']);
    expect(lostAccess(before, { ...before, '/h/b/x': 'deny' })).toEqual(['/h/b/x']);
    expect(lostAccess(before, { ...before, '/h/c': 'read' })).toEqual(['/h/c']);
    // New denies where nothing was granted, a new grant, a deny made stronger where nothing was seen: nothing lost.
    expect(lostAccess(before, { ...before, '/h/z': 'deny', '/s/x': 'deny', '/h/new': 'read' })).toEqual([]);
    // A narrower grant below a wider one: the rest of the wider one is lost.
    expect(lostAccess({ '/h/a': 'read' }, { '/h/a/sub': 'read' })).toEqual(['/h/a']);
  });
});

describe('sightLost: the running chat against the newly accepted table', () => {
  const running = (t: ReturnType<typeof tableOf>): LaunchPlan => {
    const launch = compileCodexLaunch(t, 'a', FACTS, { mailbox: mailboxDirFor(FACTS.stateDir, 'a') });
    return { sandboxed: true, filesystem: launch.filesystem } as unknown as LaunchPlan;
  };
  it('nothing for an unchanged table or a profile added elsewhere; the read_dir holding a new profile, a removed add_dir', () => {
    const t = tableOf(profile('a', { readDirs: ['/h/projects'], addDirs: ['/h/site'] }));
    const plan = running(t);
    expect(sightLost(plan, 'a', t, FACTS, FACTS.stateDir, 'a')).toBeNull();
    expect(
      sightLost(
        plan,
        'a',
        tableOf(profile('a', { readDirs: ['/h/projects'], addDirs: ['/h/site'] }), profile('b', { cwd: '/h/b' })),
        FACTS,
        FACTS.stateDir,
        'a',
      ),
    ).toBeNull();
    const nested = tableOf(profile('a', { readDirs: ['/h/projects'], addDirs: ['/h/site'] }), profile('b', { cwd: '/h/projects/b' }));
    expect(sightLost(plan, 'a', nested, FACTS, FACTS.stateDir, 'a')).toContain('/h/projects/b');
    expect(sightLost(plan, 'a', tableOf(profile('a', { readDirs: ['/h/projects'] })), FACTS, FACTS.stateDir, 'a')).toContain('/h/site');
  });

  it('a profile gone from the table, or an unsandboxed running launch, is left alone; a table that no longer compiles restarts it', () => {
    const t = tableOf(profile('a'));
    expect(sightLost(running(t), 'a', tableOf(profile('b')), FACTS, FACTS.stateDir, 'a')).toBeNull();
    expect(sightLost({ sandboxed: false } as unknown as LaunchPlan, 'a', t, FACTS, FACTS.stateDir, 'a')).toBeNull();
    expect(sightLost(running(t), 'a', tableOf(profile('a', { readDirs: ['/h/.codex/sessions'] })), FACTS, FACTS.stateDir, 'a')).toMatch(/no longer compiles/);
  });
});
