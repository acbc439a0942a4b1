/**
 * Private files Angelia writes WHILE an agent's command runs, on the real Linux sandbox of the pinned
 * Codex (0.169.0). Codex denies a named file by bind-mounting over its inode when it builds the
 * sandbox (measured), so a file replaced by a rename afterwards (write-file-atomic) or first created
 * afterwards escapes a named deny for the commands already running. Angelia therefore keeps every file
 * it writes in `<state>/private/`, denied whole (instance/paths.ts PRIVATE_DIR).
 *
 * Each case runs one `codex sandbox <the launch's -c flags> -- sh -c …` in the profile's folder (the
 * launch compiled as a start compiles it: launch/plan.ts `launchFacts`, with `ensureStateFolders` first).
 * The command writes `started.txt` in its folder, waits until `go.txt` appears there, then tries to read
 * each file. Between the two, this process writes, with Angelia's own code: the sessions store rewritten
 * atomically (SessionStore, which also writes its `.bak` for the first time), the first audit line
 * (fileAudit), the children record rewritten (ChildLedger), and a new owner token minted after the old
 * one was deleted (ensureOwnerToken). None of it can be read. Controls: a file written into the
 * profile's folder in that moment is read (late files are visible at all), and the same SessionStore
 * and audit writes at the old top-level names (the layout before `private/`, still denied by name) ARE
 * read by the running command: that is the leak the folder closes.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOwnerToken } from '../../src/main/core/api/tokens';
import { fileAudit, type AuditRecord } from '../../src/main/core/approvals/audit';
import { launchFacts } from '../../src/main/core/launch/plan';
import { SessionStore } from '../../src/main/core/chats/sessions';
import { ChildLedger, ownerIdentity } from '../../src/main/core/codex/children';
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

/** Written by the host while the command waits, into the private folder. */
const NEW = 'LATE-PRIVATE-7e3b';
/** Written by the host while the command waits, at the old top-level names (the control). */
const OLD = 'LATE-LEGACY-2c9d';
let root = '';
let home = '';
let paths: InstancePaths;
let launch: CodexLaunch;
let cwd = '';

/**
 * Starts `sh -c script` in the profile's folder under the launch's flags; resolves when it ends.
 * The caller learns that the sandbox is built when `started.txt` appears in the folder.
 */
function sh(script: string): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd, env, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * A command that says it runs (`started.txt`), waits for `go.txt` (at most 60 s), then prints each
 * file it can read followed by `OPEN <path>`.
 */
function waitThenRead(files: string[]): string {
  const reads = files.map((f) => `if cat '${f}' 2>/dev/null; then echo; echo 'OPEN ${f}'; fi`).join('; ');
  return `echo up > started.txt; i=0; while [ ! -e go.txt ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; [ -e go.txt ] || echo 'NO GO'; ${reads}; true`;
}

/** Runs `script`; once the command is up (`started.txt`), calls `meanwhile`, then lets it go on. */
async function whileRunning(script: string, meanwhile: () => Promise<void> | void): Promise<Run> {
  await rm(join(cwd, 'started.txt'), { force: true });
  await rm(join(cwd, 'go.txt'), { force: true });
  const run = sh(script);
  let ended: Run | null = null;
  void run.then((r) => {
    ended = r;
  });
  while (!existsSync(join(cwd, 'started.txt'))) {
    if (ended) throw new Error(`the sandboxed command ended before it started waiting: ${JSON.stringify(ended)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await meanwhile();
  await writeFile(join(cwd, 'go.txt'), 'go\n');
  return run;
}

const record = (chatId: string): AuditRecord => ({
  at: new Date().toISOString(),
  event: 'requested',
  chatId,
  profile: 'coder',
  kind: 'command',
  command: `echo ${chatId}`,
});

beforeAll(async () => {
  root = await makeTestDir('sbx-late');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') });
  cwd = join(paths.workspace, 'profiles', 'coder');
  for (const d of [cwd, paths.codexHome]) await mkdir(d, { recursive: true });
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "acceptEdits"\n');
  // As planLaunch: the private folders exist before the facts are read and the sandbox is built.
  await ensureStateFolders(paths.stateDir);
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe('private files written while a sandboxed command runs (codex 0.169.0, bubblewrap)', () => {
  it('the launch denies <state>/private whole, and the old top-level names by name', () => {
    expect(launch.filesystem[paths.privateDir]).toBe('deny');
    for (const name of ['sessions.json', 'sessions.json.bak', 'children.json', 'audit.jsonl', 'api.token'])
      expect(launch.filesystem[join(paths.stateDir, name)], name).toBe('deny');
    expect(launch.warnings).toEqual([]);
  });

  it('an atomic rewrite of sessions.json, its first .bak, the first audit line, a rewritten children record and a newly minted token in private/ stay unreadable; a late file in the profile folder is read', async () => {
    const store = new SessionStore(paths.sessionsFile);
    store.addChat('coder-2', 'coder');
    const ledger = new ChildLedger(paths.childrenFile);
    const child = {
      pid: process.pid,
      startTime: null,
      pgid: process.pid,
      sid: process.pid,
      boot: null,
      bin: '/bin/sh',
      owner: ownerIdentity(),
      recordedAt: new Date().toISOString(),
    };
    ledger.add({ ...child, chatId: 'coder' });
    const firstToken = ensureOwnerToken(paths.apiToken);
    expect(existsSync(`${paths.sessionsFile}.bak`)).toBe(false);
    expect(existsSync(paths.auditLog)).toBe(false);
    let token = '';
    const files = [paths.sessionsFile, `${paths.sessionsFile}.bak`, paths.auditLog, paths.childrenFile, paths.apiToken, join(cwd, 'late.txt')];
    const r = await whileRunning(waitThenRead(files), async () => {
      store.addChat(`${NEW}-chat`, 'coder');
      fileAudit(paths.auditLog).append(record(`${NEW}-audit`));
      ledger.add({ ...child, pid: process.pid + 1, chatId: `${NEW}-child` });
      await rm(paths.apiToken);
      token = ensureOwnerToken(paths.apiToken);
      await writeFile(join(cwd, 'late.txt'), `${NEW}-workspace\n`);
    });
    // The host wrote what the command then tried to read.
    expect(store.chats().map((c) => c.chatId)).toContain(`${NEW}-chat`);
    expect(existsSync(`${paths.sessionsFile}.bak`)).toBe(true);
    expect(existsSync(paths.auditLog)).toBe(true);
    expect(token).not.toBe(firstToken);
    // The control: the command ran, waited for the go, and read the file written in its folder meanwhile.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${NEW}-workspace\n\nOPEN ${join(cwd, 'late.txt')}\n`);
    // Nothing of private/: not the rewritten store, its first .bak, the first audit line, the children or either token.
    for (const secret of [`${NEW}-chat`, `${NEW}-audit`, `${NEW}-child`, 'coder-2', token, firstToken]) expect(r.stdout, secret).not.toContain(secret);
  });

  it('the layout before private/: the same rewrite of <state>/sessions.json and the first <state>/audit.jsonl line are not read by the running command either (the state folder is not granted; with a named deny alone both leaked)', async () => {
    const legacySessions = join(paths.stateDir, 'sessions.json');
    const legacyAudit = join(paths.stateDir, 'audit.jsonl');
    const store = new SessionStore(legacySessions);
    store.addChat('legacy-before', 'coder');
    expect(existsSync(legacyAudit)).toBe(false);
    const r = await whileRunning(waitThenRead([legacySessions, legacyAudit]), () => {
      store.addChat(`${OLD}-chat`, 'coder');
      fileAudit(legacyAudit).append(record(`${OLD}-audit`));
    });
    expect(r.code, r.stderr).toBe(0);
    // Named denies of files that changed under them after the sandbox was built leaked (measured before
    // HOME became private by default); now nothing of the state folder but its granted parts exists there.
    expect(r.stdout).not.toContain(`OPEN ${legacySessions}`);
    expect(r.stdout).not.toContain(`${OLD}-chat`);
    expect(r.stdout).not.toContain(`OPEN ${legacyAudit}`);
    expect(r.stdout).not.toContain(`${OLD}-audit`);
    // A command started now (a new sandbox) reads neither.
    const fresh = await sh(`cat '${legacySessions}' '${legacyAudit}' 2>/dev/null; echo done`);
    expect(fresh.stdout).toBe('done\n');
  });
});
