/**
 * How a launch compiles the agents' way to Angelia (docs/sandbox-sockets.md): the chat's mailbox as one
 * write entry nested in the denied `<state>/mailbox` (Linux and macOS), the API socket allowed on macOS
 * only, as the exact socket file with the network proxy on; the state scan leaving `bin/` readable; the
 * mailbox folder, identity file and `angelia` launcher written before a start. The instructions naming
 * the command: developerInstructions.test.ts.
 */
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchFacts } from '../../../src/main/core/launch/plan';
import { agentBinDir, launcherText, writeAgentLauncher } from '../../../src/main/core/launch/agentCommand';
import { compileCodexLaunch, type CodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { STATE_PRIVATE, stateScanRules } from '../../../src/main/core/compile/floor';
import { ensureMailbox, mailboxDirFor, mailboxName, writeNoFollow } from '../../../src/main/core/launch/mailbox';
import { resolveInstance } from '../../../src/main/core/instance/paths';
import { makeTestDir, removeTestDir } from '../instance/testDir';
import { FACTS, fixtureTable, profile } from './fixture';

/** The parsed value of one `-c` flag of a launch (undefined when absent). */
function flag(launch: CodexLaunch, key: string): unknown {
  const args = launch.codexArgs;
  for (let i = 0; i + 1 < args.length; i++) {
    if (args[i] === '-c' && args[i + 1]!.startsWith(`${key}=`)) return (parse(`v = ${args[i + 1]!.slice(key.length + 1)}`) as { v: unknown }).v;
  }
  return undefined;
}

const box = mailboxDirFor(FACTS.stateDir, 'coder');

describe("the chat's mailbox in a compiled launch", () => {
  it('is one write entry inside the denied <state>/mailbox, not a folder the agent is told it may write', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS, { mailbox: box });
    expect(STATE_PRIVATE).toContain('mailbox');
    expect(launch.filesystem['/h/.angelia/mailbox']).toBe('deny');
    expect(launch.filesystem[box]).toBe('write');
    expect(launch.sources[box]).toBe("this chat's mailbox (how its commands reach Angelia)");
    expect(launch.mailbox).toBe(box);
    expect(launch.writableRoots).not.toContain(box);
    expect(box).toMatch(/^\/h\/\.angelia\/mailbox\/[0-9a-f]{16}$/);
  });

  it("is no other launch's: another profile's agent gets the denied root and not this folder", () => {
    const writer = compileCodexLaunch(fixtureTable('acceptEdits'), 'writer', FACTS, { mailbox: mailboxDirFor(FACTS.stateDir, 'writer') });
    expect(writer.filesystem['/h/.angelia/mailbox']).toBe('deny');
    expect(writer.filesystem[box]).toBeUndefined();
    expect(mailboxName('coder')).not.toBe(mailboxName('writer'));
    expect(mailboxName('coder')).toBe(mailboxName('coder'));
  });

  it('is not given in plan mode (nothing is written), and is the folder as given without sandbox', () => {
    const plan = compileCodexLaunch(fixtureTable('plan'), 'coder', FACTS, { mailbox: box });
    expect(plan.filesystem[box]).toBeUndefined();
    expect(plan.mailbox).toBeNull();
    const open = compileCodexLaunch(fixtureTable('acceptEdits', false), 'coder', FACTS, { mailbox: box });
    expect(open.mailbox).toBe(box);
    expect(compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS).mailbox).toBeNull();
  });

  it('on Linux opens no Unix socket, whatever the facts say', () => {
    const launch = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS, { mailbox: box });
    expect(launch.codexArgs.join('\n')).not.toMatch(/unix_sockets|dangerously_allow_all_unix_sockets/);
    expect(flag(launch, 'features.network_proxy')).toBe(true);
  });

  it('on macOS allows exactly the socket file, with the proxy on, and never the allow-all switch', () => {
    const mac = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', { ...FACTS, platform: 'darwin' }, { mailbox: box });
    expect(flag(mac, 'permissions.angelia.network.unix_sockets')).toEqual({ '/h/.angelia/api.sock': 'allow' });
    expect(flag(mac, 'features.network_proxy')).toBe(true);
    expect(flag(mac, 'permissions.angelia.network.enabled')).toBe(true);
    expect(flag(mac, 'permissions.angelia.network.dangerously_allow_all_unix_sockets')).toBeUndefined();
    expect(mac.filesystem['/h/.angelia/api.sock']).toBeUndefined();
    expect(mac.filesystem['/h/.angelia/mailbox']).toBe('deny');
    expect(mac.filesystem[box]).toBe('write');
    for (const mode of ['default', 'bypassPermissions'] as const) {
      expect(flag(compileCodexLaunch(fixtureTable(mode), 'coder', { ...FACTS, platform: 'darwin' }), 'permissions.angelia.network.unix_sockets')).toEqual({
        '/h/.angelia/api.sock': 'allow',
      });
    }
  });

  it('the state scan leaves bin/ (the launcher) readable and denies every other unknown entry', () => {
    const scan = stateScanRules(profile('coder'), { ...FACTS, stateEntries: ['bin', 'mailbox', 'api.sock', 'workspace', 'cache', 'stray.db'] }, [
      '/h/.angelia/workspace/profiles/coder',
    ]);
    expect(scan.rules.map((r) => r.path)).toEqual(['/h/.angelia/stray.db']);
  });
});

describe('before a start', () => {
  let root = '';
  beforeAll(async () => {
    root = await makeTestDir('mailbox-compile');
  });
  afterAll(async () => removeTestDir(root));

  it('the launch facts grant the API socket on macOS only', async () => {
    const paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex') });
    expect((await launchFacts(paths, 'linux')).apiSocket).toBeNull();
    expect((await launchFacts(paths, 'darwin')).apiSocket).toBe(paths.apiSock);
  });

  it('creates the mailbox (700) with the identity file (600), replacing a planted link without following it', async () => {
    const state = join(root, 'state');
    const dir = mailboxDirFor(state, 'coder');
    await mkdir(dir, { recursive: true });
    const victim = join(root, 'victim.txt');
    await writeFile(victim, 'untouched');
    await symlink(victim, join(dir, 'identity.json'));
    expect(await ensureMailbox(state, 'coder', { chat: 'coder', token: 't'.repeat(20) })).toBe(dir);
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect((await lstat(join(dir, 'identity.json'))).isFile()).toBe(true);
    expect((await lstat(join(dir, 'identity.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, 'identity.json'), 'utf8'))).toEqual({ api: 1, chat: 'coder', token: 't'.repeat(20) });
    await writeNoFollow(join(dir, 'x.json'), 'one');
    await writeNoFollow(join(dir, 'x.json'), 'two');
    expect(await readFile(join(dir, 'x.json'), 'utf8')).toBe('two');
  });

  it('refuses a mailbox folder that is a symbolic link', async () => {
    const state = join(root, 'state2');
    await mkdir(join(state, 'mailbox'), { recursive: true });
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), mailboxDirFor(state, 'coder'));
    await expect(ensureMailbox(state, 'coder', { chat: 'coder', token: 't'.repeat(20) })).rejects.toThrow(
      /is not a plain folder \(a symbolic link, not followed\); Angelia keeps each chat's mailbox there/,
    );
  });

  it('writes the `angelia` launcher into <state>/bin (700), quoting its paths for sh', async () => {
    const rt = { exec: "/opt/it's/node", script: '/srv/angelia/out/main/cli.js', electron: false };
    expect(launcherText(rt)).toBe(
      "#!/bin/sh\n# Written by Angelia for its agents: the `angelia` command (the CLI of the Angelia that started them).\nexec '/opt/it'\\''s/node' '/srv/angelia/out/main/cli.js' \"$@\"\n",
    );
    expect(launcherText({ ...rt, electron: true })).toContain("\nELECTRON_RUN_AS_NODE=1 exec '/opt/it'\\''s/node'");
    const state = join(root, 'state3');
    const file = await writeAgentLauncher(state, rt);
    expect(file).toBe(join(agentBinDir(state), 'angelia'));
    expect((await lstat(file!)).mode & 0o777).toBe(0o700);
    expect(await readFile(file!, 'utf8')).toBe(launcherText(rt));
    expect(await writeAgentLauncher(state, null)).toBeNull();
  });
});
