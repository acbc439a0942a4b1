/**
 * Angelia's state folder churns while agents work (the sessions lock and write-file-atomic temps next to
 * sessions.json, approval records, mailbox requests renamed from dot-names, media copies), and codex
 * 0.169.0 on Linux fails a sandboxed command outright when a path its permission profile matches
 * vanishes while it builds the sandbox (measured with a `<state>/*` glob: "error building bubblewrap
 * command: Fatal error: failed to enumerate unreadable glob paths under <state>: …: No such file or
 * directory", and "bwrap: Can't create file at <state>/<gone>: Read-only file system"). With the
 * compiled launch of the default layout (as in sandbox-state.test.ts), N commands run one after another
 * under the real sandbox while a separate process creates and deletes files at the top of the state
 * folder (transient names and unknown names, files and folders), in `approvals/` and, with the
 * dot-name rename, in `mailbox/<hash>/`: every command must run, and the private files stay unreadable.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchFacts } from '../../src/main/core/chats/launchPlan';
import { ensureCacheDirs } from '../../src/main/core/compile/cache';
import { compileCodexLaunch, type CodexLaunch } from '../../src/main/core/compile/codexProfile';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import { pinnedCodexBin } from '../fixtures/bareCodexClient';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';

interface Run { code: number; stdout: string; stderr: string }

const SECRET = 'CHURN-SECRET-81c4';
/** Sandboxed commands per test. */
const COMMANDS = 40;
let root = '';
let home = '';
let paths: InstancePaths;
let launch: CodexLaunch;
let cwd = '';
let churner: ChildProcess | null = null;

/**
 * The churn process: argv[2] is the state folder, argv[3] the mailbox hash. Every 10 ms it creates and
 * deletes, at the top of the state folder, `sessions.json.lock`, a `sessions.json.<digits>` temp, an
 * unknown file and an unknown folder with a file in it; an approval record in `approvals/`; and a
 * mailbox request written as a dot-name, renamed, then deleted. It prints `churned <n>` every 100 rounds.
 */
const CHURN = `
const fs = require('fs'); const path = require('path');
const [state, hash] = process.argv.slice(2);
const box = path.join(state, 'mailbox', hash);
let n = 0;
const step = () => {
  for (let k = 0; k < 5; k++) {
    n++;
    const t = (rel, body) => { const p = path.join(state, rel); fs.writeFileSync(p, body); return p; };
    try { fs.writeFileSync(path.join(state, 'sessions.json.lock'), '{}', { flag: 'wx' }); fs.unlinkSync(path.join(state, 'sessions.json.lock')); } catch {}
    fs.unlinkSync(t('sessions.json.' + (1000000 + n), 'temp'));
    fs.unlinkSync(t('probe-' + n + '.json', 'probe'));
    const d = path.join(state, 'dir-' + n); fs.mkdirSync(d); fs.writeFileSync(path.join(d, 'f'), 'x'); fs.rmSync(d, { recursive: true });
    fs.unlinkSync(t(path.join('approvals', 'a' + n + '.json'), 'record'));
    const dot = path.join(box, '.r' + n + '.req.json'); const req = path.join(box, 'r' + n + '.req.json');
    fs.writeFileSync(dot, 'req'); fs.renameSync(dot, req); fs.unlinkSync(req);
  }
  if (n % 500 === 0) process.stdout.write('churned ' + n + '\\n');
  setTimeout(step, 10);
};
step();
`;

/** `sh -c script` in the profile's folder under the launch's flags. */
function sh(script: string): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(pinnedCodexBin(), ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  root = await makeTestDir('sbx-churn');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') });
  cwd = join(paths.workspace, 'profiles', 'coder');
  for (const d of [cwd, paths.codexHome, join(paths.stateDir, 'approvals'), join(paths.stateDir, 'mailbox', '3fa9c1')]) await mkdir(d, { recursive: true });
  await writeFile(join(paths.stateDir, 'sessions.json'), `${SECRET} sessions\n`);
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "acceptEdits"\n');
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
  await writeFile(join(root, 'churn.cjs'), CHURN);
});

afterAll(async () => {
  if (churner?.pid && churner.exitCode === null) churner.kill();
  if (root) await removeTestDir(root);
});

describe('the state folder churns while commands run: every command still runs', () => {
  it(`${COMMANDS} sandboxed commands during create/delete churn at the top, in approvals/ and in mailbox/<hash>/ all succeed`, async () => {
    const child = spawn(process.execPath, [join(root, 'churn.cjs'), paths.stateDir, '3fa9c1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    churner = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the churn process exited (${code}) before churning: ${err}`)));
    });
    const failures: string[] = [];
    try {
      for (let i = 0; i < COMMANDS; i++) {
        const r = await sh(`echo alive; cat '${join(paths.stateDir, 'sessions.json')}' 2>/dev/null; true`);
        if (r.code !== 0 || r.stdout !== 'alive\n') failures.push(`#${i} exit ${r.code}: ${r.stdout.trim()} ${r.stderr.trim()}`);
      }
    } finally {
      child.kill();
    }
    expect(err).toBe('');
    expect(out).toMatch(/churned \d+/);
    expect(failures).toEqual([]);
  });
});
