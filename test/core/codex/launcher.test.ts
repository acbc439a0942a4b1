import { describe, expect, it } from 'vitest';
import { launch, type LaunchedProcess } from '../../../src/main/core/codex/launcher';
import { isRunning, pgidOf, waitFor, waitGone, waitTreeEmpty } from './processes';

/** Launches `sh -c script` and reads the first stdout line (the script echoes the background pid). */
async function shWithBackgroundSleep(script: string): Promise<{ proc: LaunchedProcess; sleepPid: number }> {
  const proc = await launch({ bin: '/bin/sh', args: ['-c', script], cwd: process.cwd(), env: process.env });
  const sleepPid = await new Promise<number>((resolve) => {
    let text = '';
    proc.stdout.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl !== -1) resolve(Number(text.slice(0, nl)));
    });
  });
  return { proc, sleepPid };
}

describe('launch', () => {
  it('runs the child as leader of its own process group', async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('sleep 600 & echo $!; cat > /dev/null');
    expect(pgidOf(proc.pid)).toBe(proc.pid);
    expect(pgidOf(sleepPid)).toBe(proc.pid);
    proc.kill();
    await proc.exited;
  });

  it('stop(): a child that exits when stdin closes exits normally, and its `sleep 600` is killed with it', async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('sleep 600 & echo $!; cat > /dev/null');
    expect(isRunning(sleepPid)).toBe(true);
    const exit = await proc.stop({ graceMs: 5_000 });
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(await waitGone(sleepPid)).toBe(true);
  });

  it('stop(): escalates to SIGKILL of the group when the child ignores stdin close and SIGTERM', async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('trap "" TERM; sleep 600 & echo $!; wait; wait; wait');
    const exit = await proc.stop({ graceMs: 200 });
    expect(exit.signal).toBe('SIGKILL');
    expect(await waitGone(proc.pid)).toBe(true);
    expect(await waitGone(sleepPid)).toBe(true);
  });

  it("stop() also ends a process that moved to a group of its own within the session (like codex's bwrap helpers)", async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('perl -e \'setpgrp(0, 0); exec "sleep", "600"\' & echo $!; cat > /dev/null');
    expect(await waitFor(() => pgidOf(sleepPid) === sleepPid)).toBe(true);
    const exit = await proc.stop({ graceMs: 5_000 });
    expect(exit.code).toBe(0);
    expect(await waitGone(sleepPid)).toBe(true);
    expect(await waitTreeEmpty(proc.pid)).toEqual([]);
  });

  it('kill(): SIGKILLs the whole group at once', async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('sleep 600 & echo $!; cat > /dev/null');
    proc.kill();
    const exit = await proc.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(await waitGone(sleepPid)).toBe(true);
  });

  it('a grandchild left behind when the leader exits on its own is killed too', async () => {
    const { proc, sleepPid } = await shWithBackgroundSleep('sleep 600 & echo $!; exit 4');
    const exit = await proc.exited;
    expect(exit.code).toBe(4);
    expect(await waitGone(sleepPid)).toBe(true);
  });

  it('keeps a bounded, correctly decoded stderr tail (multibyte characters split across writes)', async () => {
    const script = `
      const w = (b) => new Promise((r) => process.stderr.write(b, r));
      (async () => {
        for (let i = 0; i < 3000; i++) await w('noise line ' + i + ' ' + 'z'.repeat(40) + '\\n');
        const b = Buffer.from('Error: 猫😀 broke\\n', 'utf8');
        await w(b.subarray(0, 9)); await new Promise((r) => setTimeout(r, 20));
        await w(b.subarray(9, 12)); await new Promise((r) => setTimeout(r, 20));
        await w(b.subarray(12));
        process.exit(2);
      })();`;
    const proc = await launch({ bin: process.execPath, args: ['-e', script], cwd: process.cwd(), env: process.env, stderrBytes: 8 * 1024, stderrTailLines: 3 });
    const exit = await proc.exited;
    expect(exit.code).toBe(2);
    const lines = exit.stderrTail.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('Error: 猫😀 broke');
    expect(lines[1]).toMatch(/^noise line 2999 z+$/);
    expect(proc.stderrTail(1000).length).toBeLessThanOrEqual(8 * 1024);
  });

  it('rejects with the executable name when it does not exist', async () => {
    await expect(launch({ bin: '/nonexistent/codex', args: ['app-server'], cwd: process.cwd(), env: process.env })).rejects.toThrow(
      /\/nonexistent\/codex.*ENOENT/,
    );
  });
});
