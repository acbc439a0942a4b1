/**
 * Angelia's state folder churns while agents work (the sessions store rewritten atomically with its lock
 * and temps, the children record, the audit log: all in `private/`; approval records, mailbox requests
 * renamed from dot-names, media copies), and codex
 * 0.169.0 on Linux fails a sandboxed command outright when a path its permission profile matches
 * vanishes while it builds the sandbox (measured with a `<state>/*` glob: "error building bubblewrap
 * command: Fatal error: failed to enumerate unreadable glob paths under <state>: …: No such file or
 * directory", and "bwrap: Can't create file at <state>/<gone>: Read-only file system"). With the
 * compiled launch of the default layout (as in sandbox-state.test.ts), N commands run one after another
 * under the real sandbox while a separate process creates and deletes files at the top of the state
 * folder (transient names and unknown names, files and folders), in `approvals/` and, with the
 * dot-name rename, in `mailbox/<hash>/`: every command must run, and the private files stay unreadable.
 * The top-level names churned there (`sessions.json.lock`, `sessions.json.<digits>`) are what an Angelia
 * older than `private/` still makes. Second case: atomic rewrites at a high rate INSIDE `private/`, as
 * the sessions store, the children record and the audit log make them now. Measured on the layout
 * before `private/` (atomic rewrites of the named `<state>/sessions.json` and its `.bak`, ~260 renames/s,
 * 40 commands): 10/40 commands failed to start ("bwrap: Can't bind mount … Unable to find … in mount
 * table" / "Unable to remount destination … Invalid argument") and 29/40 read the file; the same churn
 * in `private/`, denied whole: 0/40 and 0/40.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchFacts } from '../../src/main/core/launch/plan';
import { ensureCacheDirs, ensureStateFolders } from '../../src/main/core/launch/prepare';
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

const SECRET = 'CHURN-SECRET-81c4';
/** Sandboxed commands per test. */
const COMMANDS = 40;
/**
 * Each test runs COMMANDS `codex sandbox` processes one after another beside a churn process: ~1 s each on an
 * idle machine, over 3 s each on a loaded one (40 took more than vitest's default 120 s with two busy loops
 * and other real-codex tests beside it). The bound is the work's, not a wait: 15 s a command.
 */
const CASE_TIMEOUT_MS = COMMANDS * 15_000;
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

/**
 * The churn process of the private folder: argv[2] is `<state>/private`. Every 10 ms, 10 rounds of what
 * the sessions store, the children record and the audit log do there (chats/sessions.ts, codex/children.ts,
 * approvals/audit.ts): take the O_EXCL lock, write `sessions.json.bak` and `sessions.json` each as a
 * `<name>.<digits>` temp renamed over the name (write-file-atomic), drop the lock, rewrite
 * `children.json` the same way, append an audit line. 3 renames a round. Prints `churned <n>` every 500
 * rounds.
 */
const CHURN_PRIVATE = `
const fs = require('fs'); const path = require('path');
const [dir] = process.argv.slice(2);
let n = 0;
const atomic = (name, body) => { const t = path.join(dir, name + '.' + (1000000 + n)); fs.writeFileSync(t, body, { mode: 0o600 }); fs.renameSync(t, path.join(dir, name)); };
const step = () => {
  for (let k = 0; k < 10; k++) {
    n++;
    const lock = path.join(dir, 'sessions.json.lock');
    fs.writeFileSync(lock, '{"pid":1}', { flag: 'wx', mode: 0o600 });
    atomic('sessions.json.bak', '{"version":1,"chats":{},"n":' + (n - 1) + '}\\n');
    atomic('sessions.json', '{"version":1,"chats":{},"n":' + n + '}\\n');
    fs.unlinkSync(lock);
    atomic('children.json', '{"version":1,"children":[],"n":' + n + '}\\n');
    fs.appendFileSync(path.join(dir, 'audit.jsonl'), '{"event":"requested","n":' + n + '}\\n', { mode: 0o600 });
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
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
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
  // As planLaunch: the private folders exist before the facts are read and the sandbox is built.
  await ensureStateFolders(paths.stateDir);
  await writeFile(paths.sessionsFile, `${SECRET} private sessions\n`, { mode: 0o600 });
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
  await writeFile(join(root, 'churn.cjs'), CHURN);
  await writeFile(join(root, 'churn-private.cjs'), CHURN_PRIVATE);
});

afterAll(async () => {
  if (churner?.pid && churner.exitCode === null) churner.kill();
  if (root) await removeTestDir(root);
});

describe('the state folder churns while commands run: every command still runs', () => {
  it(
    `${COMMANDS} sandboxed commands during create/delete churn at the top, in approvals/ and in mailbox/<hash>/ all succeed`,
    { timeout: CASE_TIMEOUT_MS },
    async () => {
      const child = spawn(process.execPath, [join(root, 'churn.cjs'), paths.stateDir, '3fa9c1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      churner = child;
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
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
    },
  );
});

describe('the private folder churns while commands run: every command still starts, nothing is read', () => {
  it(
    `${COMMANDS} sandboxed commands during atomic rewrites of sessions.json, its .bak and children.json and audit appends in private/ all succeed`,
    { timeout: CASE_TIMEOUT_MS },
    async () => {
      expect(launch.filesystem[paths.privateDir]).toBe('deny');
      const child = spawn(process.execPath, [join(root, 'churn-private.cjs'), paths.privateDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      churner = child;
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the churn process exited (${code}) before churning: ${err}`)));
      });
      const files = [paths.sessionsFile, `${paths.sessionsFile}.bak`, paths.childrenFile, paths.auditLog];
      const failures: string[] = [];
      let ran = 0;
      try {
        for (let i = 0; i < COMMANDS; i++) {
          const r = await sh(`echo alive; ${files.map((f) => `cat '${f}' 2>/dev/null`).join('; ')}; true`);
          ran++;
          if (r.code !== 0 || r.stdout !== 'alive\n') failures.push(`#${i} exit ${r.code}: ${r.stdout.trim()} ${r.stderr.trim()}`);
        }
      } finally {
        child.kill();
      }
      expect(err).toBe('');
      const rounds = [...out.matchAll(/churned (\d+)/g)].map((m) => Number(m[1]));
      // The churn ran throughout (at least 500 rounds, 1500 renames) and every one of the commands started and read nothing.
      expect(rounds.length).toBeGreaterThan(0);
      expect(ran).toBe(COMMANDS);
      expect(failures).toEqual([]);
    },
  );
});
