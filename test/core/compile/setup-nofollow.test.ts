/**
 * Angelia's own setup never follows a link it did not make (docs/security-model.md "Grants are checked
 * by real path, at compile and at every start"): the state folders, the chat's mailbox, the package
 * cache and its TMPDIR, the `angelia` launcher in `<state>/bin`, and the launch guard compile writes.
 * A link where Angelia keeps its own folder is refused (nothing is created or written through it); a
 * link in a place an agent may write (its cache) is replaced, never followed; a link at a file Angelia
 * writes is replaced by the new file (rename), its target untouched.
 */
import { lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentLauncher } from '../../../src/main/core/launch/agentCommand';
import { cacheDirFor } from '../../../src/main/core/compile/cache';
import { guardPath } from '../../../src/main/core/compile/guardFile';
import { ensureMailbox, mailboxDirFor } from '../../../src/main/core/launch/mailbox';
import { ensureCacheDirs, ensureStateFolders } from '../../../src/main/core/launch/prepare';
import { compileWrite } from '../../../src/main/core/compile/write';
import { makeTestDir, removeTestDir } from '../instance/testDir';
import { makeFullInstance } from './fullInstance';

let root = '';
beforeAll(async () => {
  root = await makeTestDir('nofollow');
});
afterAll(async () => removeTestDir(root));

/** A fresh state folder and an "elsewhere" folder a planted link points at. */
async function setup(name: string): Promise<{ state: string; elsewhere: string }> {
  const state = join(root, name, 'state');
  const elsewhere = join(root, name, 'elsewhere');
  await mkdir(state, { recursive: true });
  await mkdir(elsewhere, { recursive: true });
  return { state, elsewhere };
}

const RT = { exec: '/usr/bin/node', script: '/srv/angelia/out/main/cli.js', electron: false };

describe("Angelia's own folders and files are never reached through a link", () => {
  it('ensureStateFolders refuses a private folder that is a link, and creates nothing through it', async () => {
    const { state, elsewhere } = await setup('state');
    await symlink(elsewhere, join(state, 'compiled'));
    await expect(ensureStateFolders(state)).rejects.toThrow(`${join(state, 'compiled')} is not a plain folder`);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('ensureMailbox refuses <state>/mailbox as a link, and creates no chat folder through it', async () => {
    const { state, elsewhere } = await setup('mailbox');
    await symlink(elsewhere, join(state, 'mailbox'));
    await expect(ensureMailbox(state, 'coder', { chat: 'coder', token: 't'.repeat(20) })).rejects.toThrow(`${join(state, 'mailbox')} is not a plain folder`);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(mailboxDirFor(state, 'coder').startsWith(join(state, 'mailbox'))).toBe(true);
  });

  it('ensureCacheDirs replaces a link the agent left in its cache (TMPDIR) with a folder, its target untouched; refuses a cache folder that is a link', async () => {
    const { state, elsewhere } = await setup('cache');
    const cache = cacheDirFor(state, 'coder');
    await mkdir(cache, { recursive: true });
    await symlink(elsewhere, join(cache, 'tmp'));
    await ensureCacheDirs(cache);
    expect((await lstat(join(cache, 'tmp'))).isDirectory()).toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);

    const other = cacheDirFor(state, 'writer');
    await symlink(elsewhere, other);
    await expect(ensureCacheDirs(other)).rejects.toThrow(`${other} is not a plain folder`);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('writeAgentLauncher replaces a link at <state>/bin/angelia instead of writing through it; refuses <state>/bin as a link', async () => {
    const { state, elsewhere } = await setup('launcher');
    const victim = join(elsewhere, 'victim.sh');
    await writeFile(victim, 'untouched');
    await mkdir(join(state, 'bin'));
    await symlink(victim, join(state, 'bin', 'angelia'));
    const file = await writeAgentLauncher(state, RT);
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect((await lstat(file!)).isFile()).toBe(true);
    expect((await lstat(file!)).mode & 0o777).toBe(0o700);

    const two = await setup('launcher2');
    await symlink(two.elsewhere, join(two.state, 'bin'));
    await expect(writeAgentLauncher(two.state, RT)).rejects.toThrow(`${join(two.state, 'bin')} is not a plain folder`);
    expect(await readdir(two.elsewhere)).toEqual([]);
  });

  it('compile --write replaces a link at the launch guard (its target untouched) and refuses <state>/compiled as a link', async () => {
    const inst = await makeFullInstance('nofollow-guard');
    try {
      const victim = join(inst.root, 'victim.json');
      await writeFile(victim, 'untouched');
      await symlink(victim, guardPath(inst.paths.stateDir, 'coder'));
      await compileWrite(inst.table, ['coder'], inst.facts);
      expect(await readFile(victim, 'utf8')).toBe('untouched');
      expect((await lstat(guardPath(inst.paths.stateDir, 'coder'))).isFile()).toBe(true);

      const elsewhere = join(inst.root, 'elsewhere');
      await mkdir(elsewhere);
      await rename(inst.paths.compiledDir, join(inst.root, 'compiled-old'));
      await symlink(elsewhere, inst.paths.compiledDir);
      await expect(compileWrite(inst.table, ['writer'], inst.facts)).rejects.toMatchObject({
        app: { code: 'unsafe-path', message: expect.stringContaining(`${inst.paths.compiledDir} is not a plain folder`) },
      });
      expect(await readdir(elsewhere)).toEqual([]);
    } finally {
      await removeTestDir(inst.root);
    }
  });
});
