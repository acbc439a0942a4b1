/**
 * `angelia verify` on the real Linux sandbox of the pinned Codex (0.169.0): every probe holds for two
 * compiled profiles (one default, one with an add_dir), skipped probes are reported as not run, the
 * runner leaves nothing behind, and a profile loosened behind Angelia's back FAILS with a real row.
 * The command module runs in a fresh Node process through tsx, with a fake HOME and CODEX_HOME, every
 * folder under <repo>/.angelia-test (not /tmp, which `:workspace` makes writable).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDirFor } from '../../src/main/core/compile/cache';
import { ensureCacheDirs } from '../../src/main/core/launch/prepare';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import type { ProbeRow } from '../../src/main/core/verify/run';
import { makeTestDir, removeTestDir, REPO_ROOT } from '../core/instance/testDir';
import { writeCompiled } from '../fixtures/compiled';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface Report {
  profile: string;
  codexVersion: string | null;
  probes: ProbeRow[];
  pass: boolean;
}

const KEY = 'SSH-KEY-4b1d';
let root: string;
let paths: InstancePaths;
let env: NodeJS.ProcessEnv;
let addDir: string;

function verify(...args: string[]): Promise<Run> {
  const url = pathToFileURL(join(REPO_ROOT, 'src/main/cli/commands/verify.ts')).href;
  const script = `const m = await import(${JSON.stringify(url)}); process.exitCode = await m.verify.run(${JSON.stringify(args)});`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: REPO_ROOT, env, maxBuffer: 8 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

async function report(profile: string): Promise<Report & { code: number; raw: string }> {
  const r = await verify(profile, '--json');
  return { ...(JSON.parse(r.stdout) as Report), code: r.code, raw: r.stdout };
}

const cwdOf = (name: string): string => join(paths.workspace, 'profiles', name);
const row = (r: Report, path: string, op: string) => r.probes.find((p) => p.path === path && p.op === op);

/** Every file the runner might have left (its names start with ".angelia-verify-" or "v-"). */
function leftovers(): string[] {
  const dirs = [
    cwdOf('coder'),
    cwdOf('plain'),
    addDir,
    join(paths.workspace, '_common'),
    paths.compiledDir,
    paths.stateDir,
    join(paths.home, '.ssh'),
    cacheDirFor(paths.stateDir, 'coder'),
    cacheDirFor(paths.stateDir, 'plain'),
  ];
  return dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.startsWith('.angelia-verify-') || /^v-.*\.sock$/.test(f))
      .map((f) => join(d, f)),
  );
}

beforeAll(async () => {
  root = await makeTestDir('verify');
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex-home') };
  paths = resolveInstance(env);
  addDir = join(root, 'extra');
  for (const d of [
    join(paths.home, '.ssh'),
    paths.codexHome,
    paths.compiledDir,
    paths.privateDir,
    addDir,
    cwdOf('plain'),
    join(cwdOf('coder'), '.codex'),
    join(paths.workspace, '_shared'),
    join(paths.workspace, '_common'),
  ])
    await mkdir(d, { recursive: true });
  await writeFile(join(paths.workspace, '_shared', 'doctrine.md'), '# shared\n');
  await writeFile(join(paths.home, '.ssh', 'id_rsa'), KEY);
  // A store on no list of the floor: HOME is private by construction, and the scan must not see it.
  await mkdir(join(paths.home, '.gemini'), { recursive: true });
  await writeFile(join(paths.home, '.gemini', 'oauth_creds.json'), `${KEY}-gemini`);
  await writeFile(join(paths.codexHome, 'auth.json'), '{"tokens":"CODEX-LOGIN"}');
  await writeFile(paths.apiToken, 'OWNER-TOKEN', { mode: 0o600 });
  await writeFile(
    paths.tableFile,
    [
      '[profiles.plain]',
      'cwd = "profiles/plain"',
      'permission_mode = "default"',
      '[profiles.coder]',
      'cwd = "profiles/coder"',
      `add_dirs = [${JSON.stringify(addDir)}]`,
      '',
    ].join('\n'),
  );
  const table = await loadTable(paths.tableFile, { home: paths.home, env: {} });
  await writeCompiled(paths, table);
  for (const name of ['plain', 'coder']) await ensureCacheDirs(cacheDirFor(paths.stateDir, name));
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

// Each verify runs ~25 real sandboxes one after another: a generous budget for a loaded machine.
describe('angelia verify on real codex', { timeout: 300_000 }, () => {
  it('passes for a profile with an add_dir: every required probe ran and held', async () => {
    const r = await report('coder');
    expect(r.code).toBe(0);
    // The --json shape only gains fields: `home`, what a command sees in HOME.
    expect(Object.keys(JSON.parse(r.raw) as object)).toEqual(['profile', 'codexVersion', 'probes', 'pass', 'home']);
    const scan = r.probes.find((p) => p.op === 'scan')!;
    expect(scan).toMatchObject({
      path: paths.home,
      expected: 'denied',
      pass: true,
      observed: expect.stringMatching(/^denied: nothing but the grants/) as unknown,
    });
    const home = (JSON.parse(r.raw) as { home: { root: string; grants: string[]; seen: Array<{ path: string; as: string }>; notGranted: string[] } }).home;
    expect(home.root).toBe(paths.home);
    expect(home.notGranted).toEqual([]);
    expect(home.seen.map((s) => s.path)).not.toContain(join(paths.home, '.gemini'));
    expect(home.seen.filter((s) => s.as !== 'denied' && s.as !== 'way' && s.as !== 'carve-out')).toEqual([]);
    expect(r).toMatchObject({ profile: 'coder', codexVersion: '0.171.0', pass: true });
    for (const p of r.probes) expect(Object.keys(p)).toEqual(['name', 'path', 'op', 'expected', 'observed', 'pass']);
    const probeFile = r.probes.find((p) => p.op === 'read-link')!.path;
    const must: Array<[string, string, string]> = [
      [cwdOf('coder'), 'run', 'allowed'],
      [probeFile, 'read', 'denied'],
      [probeFile, 'read-sh', 'denied'],
      [probeFile, 'read-link', 'denied'],
      [paths.compiledDir, 'list', 'denied'],
      [paths.compiledDir, 'write', 'denied'],
      [paths.privateDir, 'read', 'denied'],
      [join(paths.codexHome, 'auth.json'), 'read', 'denied'],
      [join(paths.home, '.ssh'), 'read', 'denied'],
      [cwdOf('plain'), 'read', 'denied'],
      [cacheDirFor(paths.stateDir, 'plain'), 'read', 'denied'],
      [cwdOf('coder'), 'write', 'allowed'],
      [addDir, 'write', 'allowed'],
      [cacheDirFor(paths.stateDir, 'coder'), 'write', 'allowed'],
      [join(cwdOf('coder'), '.codex'), 'read', 'allowed'],
      [join(cwdOf('coder'), '.codex'), 'write', 'denied'],
      [join(cwdOf('coder'), '.claude'), 'read', 'allowed'],
      [join(cwdOf('coder'), '.claude'), 'write', 'denied'],
      [join(paths.workspace, '_shared'), 'read', 'allowed'],
      [join(paths.workspace, '_shared'), 'write', 'denied'],
      [join(paths.workspace, '_common'), 'write', 'allowed'],
    ];
    for (const [path, op, expected] of must) expect(row(r, path, op), `${op} ${path}`).toMatchObject({ expected, pass: true });
    expect(row(r, probeFile, 'read')?.observed).toBe('denied: Permission denied');
    expect(row(r, join(cwdOf('coder'), '.codex'), 'write')?.observed).toBe('denied: Read-only file system');
    const sock = r.probes.find((p) => p.name === 'Unix socket elsewhere')!;
    const tcp = r.probes.find((p) => p.name === 'loopback TCP port')!;
    expect([sock.pass, tcp.pass]).toEqual([true, true]);
    expect(sock.observed).toMatch(/^denied: not reached \(/);
    expect(tcp.path).toMatch(/^127\.0\.0\.1:\d+$/);
    // Paths that do not exist are not run, and never count as a pass.
    expect(row(r, join(paths.home, '.aws'), 'read')).toMatchObject({ observed: 'skipped: does not exist', pass: null });
    expect(row(r, join(cwdOf('coder'), '.agents'), 'read')).toMatchObject({ pass: null });
    expect(r.raw).not.toContain(KEY);
    expect(r.raw).not.toContain('OWNER-TOKEN');
    expect(leftovers()).toEqual([]);
  });

  it('passes for a default profile, and prints the table', async () => {
    const r = await verify('plain');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe("profile plain · codex 0.171.0 · each probe ran in `codex sandbox` with the profile's compiled flags");
    expect(lines[1]).toMatch(/^probe +path +op +expected +observed +pass$/);
    expect(r.stdout).toMatch(new RegExp(`profile coder's folder +${cwdOf('coder')} +read +denied +denied: Permission denied +ok`));
    expect(r.stdout).toMatch(/\nnot run \(\d+\):\n/);
    expect(lines.at(-2)).toMatch(/^PASS: \d+ probes held, \d+ not run$/);
    expect(leftovers()).toEqual([]);
  });

  it("FAILS when the profile is loosened behind Angelia's back", async () => {
    // An add_dir on ~/.ssh is written straight into the ACCEPTED copy (no `angelia accept`, no compile).
    // compileCodexLaunch now lifts the ~/.ssh floor entry and grants it as a writable folder, while the
    // launch guard still records the last compile's `Read(~/.ssh/**)`. A start is refused for the lifted
    // rules (launch/check.ts `loosenings`), and verify's launch guard row says so with the start's own
    // reason; it also runs the flags that table compiles to and shows the hole the refusal keeps shut:
    // the sandbox would let the agent read the key folder the last compile denied.
    const accepted = await readFile(paths.acceptedTable, 'utf8');
    await writeFile(
      paths.acceptedTable,
      accepted.replace(`add_dirs = [${JSON.stringify(addDir)}]`, `add_dirs = [${JSON.stringify(addDir)}, ${JSON.stringify(join(paths.home, '.ssh'))}]`),
    );
    try {
      const r = await report('coder');
      expect(r.code).toBe(1);
      expect(r.pass).toBe(false);
      const guardRow = {
        name: 'launch guard check',
        path: join(paths.compiledDir, 'coder.json'),
        op: 'check',
        expected: 'allowed',
        pass: false,
        observed: `refused: the accepted table now lifts 2 deny rule(s) of the last compile (Read(${join(paths.home, '.ssh')}/**), Edit(${join(paths.home, '.ssh')}/**)); they stay in force until you compile again`,
      };
      expect(r.probes.find((p) => p.name === 'launch guard check')).toEqual(guardRow);
      const failed = r.probes.filter((p) => p.pass === false);
      // The listing also counts the empty .git/.agents/.codex/... entries Codex mounts in a writable folder.
      expect(failed).toEqual([
        guardRow,
        {
          name: 'last compile: denied',
          path: join(paths.home, '.ssh'),
          op: 'read',
          expected: 'denied',
          observed: expect.stringMatching(/^allowed: \d+ entries listed$/) as unknown,
          pass: false,
        },
      ]);
      expect(r.raw).not.toContain(KEY);
      expect(leftovers()).toEqual([]);
    } finally {
      await writeFile(paths.acceptedTable, accepted);
    }
  });

  it('FAILS for a profile whose sandbox is off, and refuses bad input', async () => {
    const accepted = await readFile(paths.acceptedTable, 'utf8');
    await writeFile(paths.acceptedTable, accepted.replace('permission_mode = "default"', 'permission_mode = "default"\nsandbox = false'));
    try {
      const r = await report('plain');
      expect(r.code).toBe(1);
      expect(r.probes.map((p) => [p.name, p.pass])).toEqual([
        ['launch guard check', false],
        ['sandbox', false],
      ]);
      expect(r.probes[0]?.observed).toMatch(/^refused: 1 of its protections was changed outside Angelia: sandbox off/);
    } finally {
      await writeFile(paths.acceptedTable, accepted);
    }
    const unknown = await verify('nobody');
    // An unknown name is a usage error in every command (exit 2).
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('there is no profile "nobody" in the accepted table');
    expect((await verify()).code).toBe(2);
    expect((await verify('a', 'b')).code).toBe(2);
  });
});
