/**
 * The record of Codex children on disk and the reaping of orphans, with real processes (`sh`, `sleep`,
 * `perl`) standing in for Codex: what matters is identity (pid + start time), sessions and groups.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src/shared/result';
import { ChildLedger, childTracker, childrenFile, type ChildRecord } from '../../../src/main/core/codex/children';
import { bootId, processInfo } from '../../../src/main/core/codex/identity';
import { launch } from '../../../src/main/core/codex/launcher';
import { reapOrphans } from '../../../src/main/core/codex/orphans';
import { isRunning, treeMembers, waitGone } from './processes';

let dirs: string[] = [];
let spawned: ChildProcess[] = [];
afterEach(() => {
  for (const c of spawned) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  spawned = [];
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'angelia-children-'));
  dirs.push(d);
  return d;
}

/** An Angelia process that has ended: its pid with a start time no live process has. */
function deadOwner(): { pid: number; startTime: string } {
  return { pid: spawnSync('true').pid ?? 1, startTime: 'ended' };
}

/** A session leader (`sh`, then `sleep 600`) with a `sleep 600` that moved to a group of its own in the session. */
async function orphanSession(): Promise<{ leader: number; member: number }> {
  const c = spawn('/bin/sh', ['-c', 'perl -e \'setpgrp(0, 0); exec "sleep", "600"\' & echo $!; exec sleep 600'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  spawned.push(c);
  const member = await new Promise<number>((resolve) => c.stdout!.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))));
  return { leader: c.pid!, member };
}

function sleeper(): number {
  const c = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  spawned.push(c);
  return c.pid!;
}

function recordOf(pid: number, extra: Partial<ChildRecord> = {}): ChildRecord {
  const info = processInfo(pid);
  if (!info) throw new Error(`pid ${pid} is not running`);
  return {
    pid,
    startTime: info.startTime,
    pgid: info.pgid,
    sid: info.sid,
    boot: bootId(),
    chatId: 'coder',
    bin: '/bin/sh',
    owner: deadOwner(),
    recordedAt: new Date().toISOString(),
    ...extra,
  };
}

describe('children.json', () => {
  it('records a launched child with its identity while it runs (mode 600, in <state>/private made mode 700) and forgets it once it exited', async () => {
    const dir = stateDir();
    const file = childrenFile(dir);
    expect(file).toBe(join(dir, 'private', 'children.json'));
    const proc = await launch({
      bin: '/bin/sh',
      args: ['-c', 'cat > /dev/null'],
      cwd: process.cwd(),
      env: process.env,
      track: childTracker(file, { chatId: 'coder', bin: '/bin/sh' }),
    });
    const [rec] = new ChildLedger(file).list();
    expect(rec).toMatchObject({ pid: proc.pid, startTime: processInfo(proc.pid)?.startTime, pgid: proc.pid, sid: proc.pid, chatId: 'coder', boot: bootId() });
    expect(rec?.owner).toEqual({ pid: process.pid, startTime: processInfo(process.pid)?.startTime });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    await proc.stop({ graceMs: 2_000 });
    expect(new ChildLedger(file).list()).toEqual([]);
  });

  it('refuses to launch a child it cannot record, and kills it', async () => {
    // A file where the folder should be: the record cannot be written.
    const blocker = join(stateDir(), 'blocker');
    writeFileSync(blocker, 'not a folder');
    const file = join(blocker, 'children.json');
    let pid = 0;
    const inner = childTracker(file, { chatId: 'coder', bin: '/bin/sh' });
    const track = { spawned: (p: number) => ((pid = p), inner.spawned(p)), exited: (p: number) => inner.exited(p) };
    await expect(launch({ bin: '/bin/sh', args: ['-c', 'sleep 600'], cwd: process.cwd(), env: process.env, track })).rejects.toThrow(
      /cannot record the Codex process \d+ in .*blocker\/children\.json.*Check that the state folder is writable/,
    );
    expect(await waitGone(pid)).toBe(true);
  });

  it('names the file and the fix when it is not a record', async () => {
    const dir = stateDir();
    mkdirSync(dirname(childrenFile(dir)), { mode: 0o700 });
    writeFileSync(childrenFile(dir), '{"children": [', { mode: 0o600 });
    const e = await reapOrphans(dir).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppFailure);
    expect((e as AppFailure).app).toMatchObject({ code: 'state-file', where: childrenFile(dir) });
    expect((e as AppFailure).message).toMatch(/not valid JSON.*Fix: look for leftover Codex processes/);
  });
});

describe('reaping orphans at start', () => {
  it('kills a recorded child of a dead Angelia, with every process of its session, and drops it', async () => {
    const dir = stateDir();
    const { leader, member } = await orphanSession();
    new ChildLedger(childrenFile(dir)).add(recordOf(leader));
    const report = await reapOrphans(dir);
    expect(report.killed.map((r) => r.pid)).toEqual([leader]);
    expect(await waitGone(leader)).toBe(true);
    expect(await waitGone(member)).toBe(true);
    expect(treeMembers(leader)).toEqual([]);
    expect(new ChildLedger(childrenFile(dir)).list()).toEqual([]);
  });

  it('leaves alone the children of an Angelia that still runs', async () => {
    const dir = stateDir();
    const pid = sleeper();
    const rec = recordOf(pid, { owner: { pid: process.pid, startTime: processInfo(process.pid)!.startTime } });
    new ChildLedger(childrenFile(dir)).add(rec);
    const report = await reapOrphans(dir);
    expect(report.kept).toEqual([rec]);
    expect(isRunning(pid)).toBe(true);
    expect(new ChildLedger(childrenFile(dir)).list()).toEqual([rec]);
  });

  it('never signals a pid whose start time differs (a reused pid), an unknown identity, or a pid of an earlier boot', async () => {
    const dir = stateDir();
    const reused = sleeper();
    const unknown = sleeper();
    const earlierBoot = sleeper();
    const ledger = new ChildLedger(childrenFile(dir));
    ledger.add(recordOf(reused, { startTime: '1' }));
    ledger.add(recordOf(unknown, { startTime: null }));
    ledger.add(recordOf(earlierBoot, { boot: 'another-boot' }));
    const report = await reapOrphans(dir);
    expect(report.killed).toEqual([]);
    expect(Object.fromEntries(report.dropped.map((d) => [d.record.pid, d.reason]))).toEqual({
      [reused]: expect.stringMatching(/now belongs to another process/),
      [unknown]: expect.stringMatching(/refuses to signal/),
      [earlierBoot]: 'recorded before the last reboot',
    });
    for (const pid of [reused, unknown, earlierBoot]) expect(isRunning(pid)).toBe(true);
    expect(ledger.list()).toEqual([]);
  });

  it('drops the entry of a child that is gone without signalling anything', async () => {
    const dir = stateDir();
    const pid = sleeper();
    const rec = recordOf(pid);
    process.kill(pid, 'SIGKILL');
    expect(await waitGone(pid)).toBe(true);
    new ChildLedger(childrenFile(dir)).add(rec);
    const report = await reapOrphans(dir);
    expect(report.dropped).toEqual([{ record: rec, reason: 'no longer running' }]);
  });
});
