/**
 * The one-time move of Angelia's private files from the top of the state folder into `<state>/private/`
 * (instance/migrate.ts), on real files under <repo>/.angelia-test: the happy path (every file moved
 * with its content, the stores open from the new place, a second run does nothing), an old and a new
 * copy both present (refused, naming both files and the fix, nothing moved), nothing to move (nothing
 * done, not even the folder), and the cases left alone: an empty file at an old name (codex 0.169.0's
 * placeholder for a missing denied path during an approved escalation) and a move interrupted between
 * link and unlink.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src/shared/result';
import { SessionStore } from '../../../src/main/core/chats/sessions';
import { ChildLedger } from '../../../src/main/core/codex/children';
import { ensureOwnerToken } from '../../../src/main/core/api/tokens';
import { ensureStateFolders } from '../../../src/main/core/launch/prepare';
import { migratePrivateFiles } from '../../../src/main/core/instance/migrate';
import { PRIVATE_FILES, resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';
import { makeTestDir, removeTestDir } from './testDir';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeTestDir(d);
});

async function instance(): Promise<InstancePaths> {
  const root = await makeTestDir('migrate');
  dirs.push(root);
  const paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state') });
  mkdirSync(paths.workspace, { recursive: true, mode: 0o700 });
  return paths;
}

const SESSIONS =
  JSON.stringify(
    { version: 1, chats: { coder: { profile: 'coder', active: null, history: [] }, 'coder-2': { profile: 'coder', active: null, history: [] } } },
    null,
    2,
  ) + '\n';
const BAK = JSON.stringify({ version: 1, chats: { coder: { profile: 'coder', active: null, history: [] } } }, null, 2) + '\n';
const CHILDREN = JSON.stringify({ version: 1, children: [] }, null, 2) + '\n';
const AUDIT = '{"at":"2026-01-01T00:00:00.000Z","event":"requested"}\n';
const TOKEN = 'owner-token-of-an-older-layout-0123456789\n';

/** The files of an older Angelia, at the top of the state folder, by name. */
const LEGACY: Record<(typeof PRIVATE_FILES)[number], string> = {
  'sessions.json': SESSIONS,
  'sessions.json.bak': BAK,
  'children.json': CHILDREN,
  'audit.jsonl': AUDIT,
  'api.token': TOKEN,
};

function writeLegacy(paths: InstancePaths): void {
  for (const [name, body] of Object.entries(LEGACY)) writeFileSync(join(paths.stateDir, name), body, { mode: 0o600 });
}

describe('migratePrivateFiles', () => {
  it('moves every private file of an older layout into <state>/private once, content and mode kept; the stores open from there', async () => {
    const paths = await instance();
    writeLegacy(paths);
    const report = migratePrivateFiles(paths);
    const now: Record<string, string> = {
      'sessions.json': paths.sessionsFile,
      'sessions.json.bak': `${paths.sessionsFile}.bak`,
      'children.json': paths.childrenFile,
      'audit.jsonl': paths.auditLog,
      'api.token': paths.apiToken,
    };
    expect(report.moved).toEqual(PRIVATE_FILES.map((name) => ({ from: join(paths.stateDir, name), to: now[name] })));
    for (const [name, body] of Object.entries(LEGACY)) {
      expect(existsSync(join(paths.stateDir, name)), name).toBe(false);
      expect(readFileSync(now[name]!, 'utf8'), name).toBe(body);
      expect(statSync(now[name]!).mode & 0o777, name).toBe(0o600);
      expect(statSync(now[name]!).nlink, name).toBe(1);
    }
    expect(statSync(paths.privateDir).mode & 0o777).toBe(0o700);
    expect(
      new SessionStore(paths.sessionsFile)
        .chats()
        .map((c) => c.chatId)
        .sort(),
    ).toEqual(['coder', 'coder-2']);
    expect(new ChildLedger(paths.childrenFile).list()).toEqual([]);
    expect(ensureOwnerToken(paths.apiToken)).toBe(TOKEN.trim());
    expect(migratePrivateFiles(paths)).toEqual({ moved: [] });
  });

  it('refuses when an old and a new copy both exist, naming both files and the fix, and moves nothing at all', async () => {
    const paths = await instance();
    writeLegacy(paths);
    mkdirSync(paths.privateDir, { mode: 0o700 });
    const newer = SESSIONS.replace('coder-2', 'coder-3');
    writeFileSync(paths.sessionsFile, newer, { mode: 0o600 });
    let caught: unknown;
    try {
      migratePrivateFiles(paths);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppFailure);
    const app = (caught as AppFailure).app;
    const old = join(paths.stateDir, 'sessions.json');
    expect(app.code).toBe('state-layout');
    expect(app.message).toContain(`(${old} and ${paths.sessionsFile})`);
    expect(app.where).toBe(old);
    expect(app.fix).toContain(`mv '${old}' '${paths.sessionsFile}.old'`);
    expect(app.fix).toMatch(/^stop every Angelia process, compare each pair and keep the file you want at its new path/);
    // Nothing moved: not even the files that had no copy in private/.
    for (const [name, body] of Object.entries(LEGACY)) expect(readFileSync(join(paths.stateDir, name), 'utf8'), name).toBe(body);
    expect(readFileSync(paths.sessionsFile, 'utf8')).toBe(newer);
    expect(existsSync(paths.childrenFile)).toBe(false);
  });

  it('does nothing when there is nothing to move: no file touched, no folder made', async () => {
    const paths = await instance();
    writeFileSync(paths.envFile, 'A=1\n', { mode: 0o600 });
    expect(migratePrivateFiles(paths)).toEqual({ moved: [] });
    expect(existsSync(paths.privateDir)).toBe(false);
    expect(readFileSync(paths.envFile, 'utf8')).toBe('A=1\n');
  });

  it('does nothing on an instance already in the new layout', async () => {
    const paths = await instance();
    new SessionStore(paths.sessionsFile).addChat('coder-2', 'coder');
    const before = readFileSync(paths.sessionsFile, 'utf8');
    expect(migratePrivateFiles(paths)).toEqual({ moved: [] });
    expect(readFileSync(paths.sessionsFile, 'utf8')).toBe(before);
  });

  it("leaves an empty file at an old name alone (Codex's placeholder during an escalation): no conflict, never moved", async () => {
    const paths = await instance();
    new SessionStore(paths.sessionsFile).addChat('coder-2', 'coder');
    writeFileSync(join(paths.stateDir, 'sessions.json'), '', { mode: 0o444 });
    writeFileSync(join(paths.stateDir, 'audit.jsonl'), '', { mode: 0o444 });
    expect(migratePrivateFiles(paths)).toEqual({ moved: [] });
    expect(existsSync(join(paths.stateDir, 'sessions.json'))).toBe(true);
    expect(existsSync(paths.auditLog)).toBe(false);
    expect(new SessionStore(paths.sessionsFile).chats().map((c) => c.chatId)).toEqual(['coder-2']);
  });

  it('finishes a move interrupted between link and unlink (both names on one file): the old name goes, the file stays', async () => {
    const paths = await instance();
    writeLegacy(paths);
    mkdirSync(paths.privateDir, { mode: 0o700 });
    linkSync(join(paths.stateDir, 'sessions.json'), paths.sessionsFile);
    const report = migratePrivateFiles(paths);
    expect(report.moved.map((m) => m.from)).not.toContain(join(paths.stateDir, 'sessions.json'));
    expect(report.moved).toHaveLength(PRIVATE_FILES.length - 1);
    expect(existsSync(join(paths.stateDir, 'sessions.json'))).toBe(false);
    expect(readFileSync(paths.sessionsFile, 'utf8')).toBe(SESSIONS);
    expect(statSync(paths.sessionsFile).nlink).toBe(1);
  });

  it('before a launch ensureStateFolders makes <state>/private (mode 700) whether or not anything was migrated', async () => {
    const paths = await instance();
    expect(migratePrivateFiles(paths)).toEqual({ moved: [] });
    await ensureStateFolders(paths.stateDir);
    expect(statSync(paths.privateDir).isDirectory()).toBe(true);
    expect(statSync(paths.privateDir).mode & 0o777).toBe(0o700);
  });

  it('refuses when <state>/private is a file, naming it', async () => {
    const paths = await instance();
    writeLegacy(paths);
    writeFileSync(paths.privateDir, 'not a folder');
    expect(() => migratePrivateFiles(paths)).toThrow(
      `${paths.privateDir} is not a folder, so Angelia cannot keep its private files there (${paths.privateDir}) Fix: move it out of the state folder`,
    );
    // The old files are still there (only the folder was in the way).
    for (const name of PRIVATE_FILES) expect(existsSync(join(paths.stateDir, name)), name).toBe(true);
  });
});
