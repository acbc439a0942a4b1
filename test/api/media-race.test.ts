/**
 * send-media's check/use race (docs/security-model.md "Files the API copies (send-media)"): while an
 * agent's requests are served, a separate process keeps swapping a folder the agent may read for a
 * symbolic link to a folder its profile is denied (another profile's). Whatever the timing, no copy may
 * hold the denied file: the file checked must be the file copied. Real files, the real route on a real
 * socket; the swapper is a bounded loop (no sleeps) in its own process, so it runs truly alongside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

let dirs: ApiDirs;
let fake: FakeApiCore;
let t: TestApi;
let other: string;

const REQUESTS = 300;
const PARALLEL = 6;
const MINE = "the agent's own file";
const THEIRS = "another profile's private file";

beforeAll(async () => {
  dirs = await apiDirs();
  other = join(dirs.root, 'other-profile');
  await mkdir(join(other, 'private'), { recursive: true });
  await writeFile(join(other, 'private', 'f.txt'), THEIRS);
  fake = createFakeApiCore({ cwd: { coder: dirs.outside }, deny: { coder: [`Read(${other}/**)`] } });
  t = await startTestApi(fake.core, dirs, { codexHome: join(dirs.root, 'codex-home') });
});

afterAll(async () => {
  await t.api.close();
  await dirs.cleanup();
});

/**
 * Starts a process that swaps `<outside>/pub` (a folder holding f.txt) with `<outside>/link` (a symbolic
 * link to the other profile's folder) at most `rounds` times; answers it and a promise of its exit.
 */
function startSwapper(outside: string, rounds: number): { child: ChildProcess; exited: Promise<void> } {
  const script = `
    const { renameSync } = require('node:fs');
    const [pub, held, link] = ['pub', 'pub.real', 'link'].map((n) => require('node:path').join(${JSON.stringify(outside)}, n));
    for (let i = 0; i < ${rounds}; i++) {
      renameSync(pub, held); renameSync(link, pub);
      renameSync(pub, link); renameSync(held, pub);
    }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

describe('send-media: the file checked is the file copied', () => {
  it(`a folder swapped for a symbolic link to a denied folder during ${REQUESTS} requests: no copy holds the denied file`, async () => {
    const pub = join(dirs.outside, 'pub');
    await mkdir(pub);
    await writeFile(join(pub, 'f.txt'), MINE);
    await symlink(join(other, 'private'), join(dirs.outside, 'link'));
    // The rule holds without a race: the denied file is refused through the link.
    const direct = await call(dirs.socket, 'POST', '/send-media', {
      token: t.tokenFor('coder'),
      body: { key: 'coder', path: join(dirs.outside, 'link', 'f.txt') },
    });
    expect(direct.status).toBe(403);

    const swapper = startSwapper(dirs.outside, 5_000_000);
    const statuses = new Map<number, number>();
    let sent = 0;
    try {
      const worker = async (): Promise<void> => {
        while (sent < REQUESTS) {
          sent++;
          const res = await call(dirs.socket, 'POST', '/send-media', { token: t.tokenFor('coder'), body: { key: 'coder', path: join(pub, 'f.txt') } });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    } finally {
      if (swapper.child.exitCode === null) swapper.child.kill('SIGKILL');
      await swapper.exited;
    }
    // The swapper stopped half-way: the folder is put back (the copies below are read from state/media).
    if (
      !(await lstat(pub).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      await rm(pub, { force: true });
      await rename(join(dirs.outside, 'pub.real'), pub);
    }

    const copies = await Promise.all(fake.posts.flatMap((p) => p.post.files).map((f) => readFile(f, 'utf8')));
    const leaked = copies.filter((c) => c === THEIRS).length;
    const summary = `${leaked} of ${copies.length} copies hold the other profile's file; statuses ${JSON.stringify(Object.fromEntries(statuses))}`;
    expect(leaked, summary).toBe(0);
    // The race was real: requests met both the folder (sent) and the link (refused, missing or changed).
    expect(copies.filter((c) => c === MINE).length, summary).toBeGreaterThan(0);
    expect(REQUESTS - (statuses.get(200) ?? 0), summary).toBeGreaterThan(0);
  });
});
