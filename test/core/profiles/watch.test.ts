/**
 * watchTable (profiles/watch.ts): a second write soon after the first is seen. chokidar 4 drops a `change`
 * within 50 ms of the one it last emitted for the path, with no trailing event; before the look again,
 * a save made while the first save was being read was never reported (the account watch test met it on a
 * loaded machine: a sign-out right after a token refresh was never told). Waits on conditions only.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchTable, type TableWatch } from '../../../src/main/core/profiles/watch';

const dirs: string[] = [];
const watches: TableWatch[] = [];
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'angelia-watch-'));
  dirs.push(d);
  return d;
}

describe('watchTable', () => {
  it('reports a write made inside chokidar’s 50 ms window after the change it reported', async () => {
    const file = join(folder(), 'angelia.toml');
    writeFileSync(file, 'v = 0\n');
    const read: string[] = [];
    const w = await watchTable(
      file,
      () => {
        read.push(readFileSync(file, 'utf8'));
        // The second save, made as the first one is read: inside chokidar's throttle of the first change.
        if (read.length === 1) writeFileSync(file, 'v = 2\n');
      },
      { debounceMs: 1 },
    );
    watches.push(w);
    writeFileSync(file, 'v = 1\n');
    await expect.poll(() => read.at(-1), { timeout: 10_000, interval: 20 }).toBe('v = 2\n');
    expect(read[0]).toBe('v = 1\n');
  });

  it('a burst of writes is reported, and the next write after it too (a few calls, not one per write)', async () => {
    const file = join(folder(), 'auth.json');
    let calls = 0;
    const w = await watchTable(file, () => void calls++, { debounceMs: 30 });
    watches.push(w);
    for (let i = 0; i < 5; i++) writeFileSync(file, `{"n":${i}}`);
    await expect.poll(() => calls, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    // A later write is reported: by then any look again of the burst has run (a call it made would be seen first).
    const before = calls;
    writeFileSync(file, '{"n":"last"}');
    await expect.poll(() => calls, { timeout: 10_000, interval: 20 }).toBeGreaterThan(before);
    expect(calls).toBeLessThanOrEqual(before + 2);
  });

  it('sees the file removed and made again; close stops every call', async () => {
    const file = join(folder(), 'auth.json');
    writeFileSync(file, '{}');
    let calls = 0;
    const w = await watchTable(file, () => void calls++, { debounceMs: 5 });
    rmSync(file);
    await expect.poll(() => calls, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    await w.close();
    const after = calls;
    writeFileSync(file, '{"again":true}');
    // A second watch sees this write; the closed one must not have called by then.
    let live = 0;
    const w2 = await watchTable(file, () => void live++, { debounceMs: 5 });
    watches.push(w2);
    writeFileSync(file, '{"again":2}');
    await expect.poll(() => live, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    expect(calls).toBe(after);
  });
});
