/**
 * Proves on the real Linux sandbox of the pinned Codex (0.169.0) that the flags compileCodexLaunch
 * produces hold: each probe runs `codex sandbox <compiled -c flags> -- <cmd>` in the profile's folder,
 * with a fake HOME, a fresh CODEX_HOME and every test folder under <repo>/.angelia-test (not /tmp,
 * which `:workspace` makes writable).
 */
import { execFile, type ExecFileException } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCacheDirs } from '../../src/main/core/launch/prepare';
import { compileCodexLaunch, type CodexLaunch } from '../../src/main/core/compile/codexProfile';
import { gatherFacts } from '../../src/main/core/compile/gather';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable, type LoadedTable } from '../../src/main/core/table/load';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../core/instance/testDir';

const CODEX = join(REPO_ROOT, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
const KEY = 'SECRET-KEY-0f3a';
const TOKEN = 'API-TOKEN-77c1';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let root: string;
let home: string;
let paths: InstancePaths;
let table: LoadedTable;
let coder: CodexLaunch;
let other: CodexLaunch;
let planner: CodexLaunch;
let addDir: string;
let outside: string;
let sockPath: string;
let tcpPort: number;
const servers: Server[] = [];

function profileDir(name: string): string {
  return join(paths.workspace, 'profiles', name);
}

/** `codex sandbox <launch flags> -- cmd…` in the profile's folder; resolves with code and output. */
function sandbox(launch: CodexLaunch, cmd: string[], args: string[] = launch.codexArgs.slice(0, -1)): Promise<Run> {
  expect(launch.codexArgs.at(-1)).toBe('app-server');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(
      CODEX,
      ['sandbox', ...args, '--', ...cmd],
      { cwd: profileDir(launch.profile), env, timeout: 60_000 },
      (error: ExecFileException | null, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

function serve(listen: (s: Server) => void): Promise<Server> {
  const server = createServer((req, res) => res.end(`reached ${req.url}\n`));
  servers.push(server);
  return new Promise((resolve) => {
    server.once('listening', () => resolve(server));
    listen(server);
  });
}

beforeAll(async () => {
  expect(existsSync(CODEX), `the pinned codex binary at ${CODEX}`).toBe(true);
  root = await makeTestDir('sbx');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex-home') });
  addDir = join(root, 'extra "q" \\ ü');
  outside = join(root, 'outside');
  for (const dir of [
    join(home, '.ssh'),
    paths.codexHome,
    paths.compiledDir,
    paths.privateDir,
    addDir,
    outside,
    join(root, 'sock'),
    profileDir('coder'),
    profileDir('other'),
    profileDir('planner'),
  ])
    await mkdir(dir, { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), KEY);
  await writeFile(paths.apiToken, TOKEN);
  await writeFile(paths.acceptedTable, `# ${TOKEN}\n`);
  await writeFile(join(profileDir('other'), 'notes.txt'), 'OTHER-NOTES');
  await symlink(join(home, '.ssh', 'id_rsa'), join(profileDir('coder'), 'key-link'));
  await symlink(join(home, '.ssh'), join(profileDir('coder'), 'ssh-dir'));
  await writeFile(
    paths.tableFile,
    [
      '[profiles.coder]',
      'cwd = "profiles/coder"',
      'permission_mode = "acceptEdits"',
      `add_dirs = [${JSON.stringify(addDir)}]`,
      '[profiles.other]',
      'cwd = "profiles/other"',
      'permission_mode = "default"',
      '[profiles.planner]',
      'cwd = "profiles/planner"',
      'permission_mode = "plan"',
      '',
    ].join('\n'),
  );
  table = await loadTable(paths.tableFile, { home, env: {} });
  const facts = await gatherFacts(paths, 'linux');
  coder = compileCodexLaunch(table, 'coder', facts);
  other = compileCodexLaunch(table, 'other', facts);
  planner = compileCodexLaunch(table, 'planner', facts);
  for (const launch of [coder, other]) await ensureCacheDirs(launch.cacheDir!);
  await writeFile(join(other.cacheDir!, 'npm', 'cached.txt'), 'OTHER-CACHE');

  sockPath = join(root, 'sock', 's.sock');
  await serve((s) => s.listen(sockPath));
  const tcp = await serve((s) => s.listen(0, '127.0.0.1'));
  tcpPort = (tcp.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  if (root) await removeTestDir(root);
});

const PERMISSION = /Permission denied|Operation not permitted/;

describe('compiled flags on the real Linux sandbox (codex 0.169.0)', () => {
  it('runs a command at all (control), and the compile produced no warning', async () => {
    const r = await sandbox(coder, ['sh', '-c', 'echo alive']);
    expect(r).toMatchObject({ code: 0, stdout: 'alive\n' });
    expect(coder.warnings).toEqual([]);
  });

  it('a floor file under HOME cannot be read: directly, through sh -c, through symlinks in the cwd', async () => {
    const key = join(home, '.ssh', 'id_rsa');
    expect(await readFile(key, 'utf8')).toBe(KEY);
    for (const cmd of [
      ['cat', key],
      ['sh', '-c', `cat '${key}'`],
      ['cat', 'key-link'],
      ['cat', 'ssh-dir/id_rsa'],
      ['ls', join(home, '.ssh')],
    ]) {
      const r = await sandbox(coder, cmd);
      expect(r.code, cmd.join(' ')).not.toBe(0);
      expect(r.stdout).not.toContain(KEY);
      expect(r.stderr).toMatch(PERMISSION);
    }
  });

  it("the instance's api.token and accepted table cannot be read", async () => {
    for (const file of [paths.apiToken, paths.acceptedTable]) {
      const r = await sandbox(coder, ['cat', file]);
      expect(r.code).not.toBe(0);
      expect(r.stdout).not.toContain(TOKEN);
    }
  });

  it('the cwd and an add_dir (a name with quotes, a backslash and ü) are writable', async () => {
    const r = await sandbox(coder, ['sh', '-c', 'echo in-cwd > written.txt && echo in-add > "$0/added.txt"', addDir]);
    expect(r).toMatchObject({ code: 0 });
    expect(await readFile(join(profileDir('coder'), 'written.txt'), 'utf8')).toBe('in-cwd\n');
    expect(await readFile(join(addDir, 'added.txt'), 'utf8')).toBe('in-add\n');
  });

  it('a folder outside the reach is not writable (nor there at all: HOME is private by default)', async () => {
    const r = await sandbox(coder, ['sh', '-c', 'echo x > "$0/nope.txt"', outside]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied|Directory nonexistent/);
    expect(existsSync(join(outside, 'nope.txt'))).toBe(false);
  });

  it("another profile's folder cannot be read", async () => {
    for (const cmd of [
      ['cat', join(profileDir('other'), 'notes.txt')],
      ['ls', profileDir('other')],
    ]) {
      const r = await sandbox(coder, cmd);
      expect(r.code).not.toBe(0);
      expect(r.stdout).not.toContain('OTHER-NOTES');
      expect(r.stderr).toMatch(PERMISSION);
    }
  });

  it("its own package cache is writable, another profile's cache is denied", async () => {
    const mine = await sandbox(coder, ['sh', '-c', 'echo c > "$npm_config_cache/mine.txt" && cat "$0"', join(other.cacheDir!, 'npm', 'cached.txt')]);
    expect(await readFile(join(coder.cacheDir!, 'npm', 'mine.txt'), 'utf8')).toBe('c\n');
    expect(mine.code).not.toBe(0);
    expect(mine.stdout).not.toContain('OTHER-CACHE');
  });

  it('plan mode: the cwd is read-only', async () => {
    const r = await sandbox(planner, ['sh', '-c', 'echo alive; echo x > plan.txt']);
    expect(r.stdout).toBe('alive\n');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(join(profileDir('planner'), 'plan.txt'))).toBe(false);
  });
});

describe('network of the compiled flags', () => {
  it('a loopback TCP port is unreachable: through the proxy, directly, and from node (the host reaches it)', async () => {
    const url = `http://127.0.0.1:${tcpPort}/probe`;
    expect(await (await fetch(url)).text()).toBe('reached /probe\n');
    const viaProxy = await sandbox(coder, ['curl', '-sS', '-m', '10', url]);
    expect(viaProxy.stdout).not.toContain('reached');
    const direct = await sandbox(coder, ['curl', '-sS', '-m', '10', '--noproxy', '*', url]);
    expect(direct.code).not.toBe(0);
    expect(direct.stdout).not.toContain('reached');
    const node = await sandbox(coder, [
      process.execPath,
      '-e',
      `require('net').connect(${tcpPort}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`,
    ]);
    expect(node.stdout).not.toContain('CONNECTED');
    expect(node.code).toBe(3);
  });

  it('a Unix socket elsewhere is unreachable from curl and node (the host reaches it)', async () => {
    const host = await new Promise<string>((resolve) => {
      execFile('curl', ['-sS', '--unix-socket', sockPath, 'http://x/host'], (_e, out) => resolve(out));
    });
    expect(host).toBe('reached /host\n');
    const curl = await sandbox(coder, ['curl', '-sS', '-m', '10', '--unix-socket', sockPath, 'http://x/probe']);
    expect(curl.code).not.toBe(0);
    expect(curl.stdout).not.toContain('reached');
    const node = await sandbox(coder, [
      process.execPath,
      '-e',
      `require('net').connect({ path: ${JSON.stringify(sockPath)} }).on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`,
    ]);
    expect(node.stdout).not.toContain('CONNECTED');
    expect(node.code).toBe(3);
  });

  it("web traffic goes through Codex's proxy and every domain passes its allowlist", async () => {
    const probe = ['sh', '-c', 'echo "active=$CODEX_NETWORK_PROXY_ACTIVE proxy=${HTTP_PROXY:+set}"; curl -s -m 10 http://angelia-probe.invalid/'];
    const r = await sandbox(coder, probe);
    expect(r.stdout).toContain('active=1 proxy=set');
    expect(r.stdout).not.toContain('"reason":"not_allowed"');
    // Control: the same flags without the domains entry are refused by the allowlist, so the check above can fail.
    const args = coder.codexArgs.slice(0, -1);
    const at = args.findIndex((a) => a.startsWith('permissions.angelia.network.domains='));
    const control = await sandbox(coder, probe, [...args.slice(0, at - 1), ...args.slice(at + 1)]);
    expect(control.stdout).toContain('"reason":"not_allowed"');
  });
});
