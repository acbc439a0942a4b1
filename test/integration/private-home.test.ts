/**
 * HOME is private by default (docs/security-model.md "Filesystem: private by default"), on the real
 * Linux sandbox of the pinned Codex (0.169.0). A home holds the credential and transcript stores of
 * many tools (most on no list in floor.ts); each probe runs `codex sandbox <the launch's -c flags> -- sh -c …`
 * in the profile's folder with the launch facts of a start, as sandbox-codex-home.test.ts does. No
 * store may be read or listed; what the profile grants (its folder, a toolchain in `~/.local/bin`)
 * still works. Measured before the grants-only design: 25 of these stores were readable.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchFacts } from '../../src/main/core/launch/plan';
import { ensureCacheDirs } from '../../src/main/core/launch/prepare';
import { compileCodexLaunch, type CodexLaunch } from '../../src/main/core/compile/codexProfile';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import { pinnedCodexBin } from '../fixtures/bareCodexClient';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Credential and transcript stores found in homes, relative to HOME (files; a folder is made for each
 * parent). Many are on no list of floor.ts: HOME must be private by construction, not by a list.
 */
export const PLANTED_STORES = [
  '.gemini/oauth_creds.json',
  '.gemini/settings.json',
  '.config/opencode/opencode.json',
  '.local/share/opencode/auth.json',
  '.config/github-copilot/hosts.json',
  '.config/github-copilot/apps.json',
  '.config/rclone/rclone.conf',
  '.pulumi/credentials.json',
  '.local/share/keyrings/login.keyring',
  '.local/share/kwalletd/kdewallet.kwl',
  '.config/google-chrome/Default/Login Data',
  '.mozilla/firefox/abcd.default-release/logins.json',
  '.bash_history',
  '.zsh_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.python_history',
  '.node_repl_history',
  '.local/share/fish/fish_history',
  '.docker/config.json',
  '.kube/config',
  '.aws/credentials',
  '.azure/msal_token_cache.json',
  '.config/gcloud/credentials.db',
  '.ssh/id_ed25519',
  '.gnupg/private-keys-v1.d/0A1B.key',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gh/hosts.yml',
  '.terraform.d/credentials.tfrc.json',
  '.claude/.credentials.json',
  '.claude/projects/p/session.jsonl',
  '.cursor/mcp.json',
  '.aider.conf.yml',
  '.aider.chat.history.md',
  '.continue/config.json',
  '.config/op/config',
  '.password-store/bank.gpg',
  '.vault-token',
  '.pgpass',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.s3cfg',
  '.boto',
  '.oci/config',
  '.config/doctl/config.yaml',
  '.config/hcloud/cli.toml',
  '.netlify/config.json',
  '.config/configstore/firebase-tools.json',
  '.wrangler/config/default.toml',
  '.config/hub',
  '.config/Code/User/globalStorage/state.vscdb',
  '.local/share/recently-used.xbel',
  '.gitconfig',
];

const MARK = 'PLANTED-SECRET-5e1d';
let root = '';
let home = '';
let paths: InstancePaths;
let launch: CodexLaunch;
let cwd = '';

function sh(script: string): Promise<Run> {
  const env = {
    PATH: `${join(home, '.local', 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    CODEX_HOME: paths.codexHome,
    RUST_LOG: 'warn',
    ...launch.env,
  };
  return new Promise((resolve) => {
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd, env, timeout: 60_000, maxBuffer: 8 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const q = (p: string): string => `'${p.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  root = await makeTestDir('private-home');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(home, '.codex') });
  cwd = join(paths.workspace, 'profiles', 'coder');
  await mkdir(cwd, { recursive: true });
  await mkdir(paths.codexHome, { recursive: true });
  for (const rel of PLANTED_STORES) {
    await mkdir(dirname(join(home, rel)), { recursive: true });
    await writeFile(join(home, rel), `${MARK} ${rel}\n`, { mode: 0o600 });
  }
  await mkdir(join(home, '.local', 'bin'), { recursive: true });
  await writeFile(join(home, '.local', 'bin', 'mytool'), '#!/bin/sh\necho mytool-ran\n');
  await chmod(join(home, '.local', 'bin', 'mytool'), 0o755);
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "acceptEdits"\n');
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe('HOME is private by default (real codex sandbox)', () => {
  it(`plants ${PLANTED_STORES.length} stores (at least 35)`, () => {
    expect(PLANTED_STORES.length).toBeGreaterThanOrEqual(35);
  });

  it('no planted store can be read, by cat, by a search of HOME, or through its folder', async () => {
    const script = [
      ...PLANTED_STORES.map((rel) => `cat ${q(join(home, rel))} 2>/dev/null | grep -q ${MARK} && echo ${q(`READ ${rel}`)}`),
      `grep -rl ${MARK} ${q(home)} 2>/dev/null | sed 's/^/FOUND /'`,
      'echo probes-done',
    ].join('; ');
    const run = await sh(script);
    expect(run.stderr).not.toMatch(/bwrap|error building/);
    const leaks = run.stdout.split('\n').filter((l) => /^(READ|FOUND) /.test(l));
    expect(leaks).toEqual([]);
    expect(run.stdout).toContain('probes-done');
  });

  it('no folder of a planted store lists what it holds: only the empty mount points of deny entries kept for escalated commands', async () => {
    const folders = [...new Set(PLANTED_STORES.map((rel) => dirname(rel)).filter((d) => d !== '.'))];
    const run = await sh(
      [...folders.map((d) => `ls -A ${q(join(home, d))} 2>/dev/null | sed ${q(`s|^|LISTED ${join(home, d)}/|`)}`), 'echo probes-done'].join('; '),
    );
    expect(run.stdout).toContain('probes-done');
    // A deny entry (floor.ts, for what runs outside the sandbox once approved) is a mount point: its name
    // shows, empty (the search above read nothing). Anything else listed would be the store's own.
    const denied = Object.keys(launch.filesystem).filter((p) => launch.filesystem[p] === 'deny');
    const listed = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('LISTED '))
      .map((l) => l.slice('LISTED '.length));
    expect(listed.filter((p) => !denied.some((d) => d === p || d.startsWith(`${p}/`)))).toEqual([]);
    const planted = new Set(PLANTED_STORES.map((rel) => join(home, rel)));
    const shown = listed.filter((p) => planted.has(p));
    expect(
      shown.every((p) => denied.includes(p)),
      shown.join(', '),
    ).toBe(true);
  });

  it('what the profile grants still works: a tool in ~/.local/bin runs, the own folder is writable', async () => {
    const run = await sh('mytool && echo made > made.txt && cat made.txt');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('mytool-ran\nmade\n');
  });
});
