/**
 * `children.json` changed by several processes at once (`angelia serve` and a CLI `run`, or two chats
 * starting together): every add is a read-modify-write under the state-file lock (instance/jsonStore.ts),
 * so no process writes back a copy that lacks another's entry.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ChildLedger, childrenFile } from '../../../src/main/core/codex/children';

const REPO = join(__dirname, '..', '..', '..');
const PER_PROCESS = 40;
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it(`three processes adding ${PER_PROCESS} children each at the same time lose no entry`, async () => {
  dir = mkdtempSync(join(tmpdir(), 'angelia-children-race-'));
  const file = childrenFile(dir);
  const script = join(dir, 'adder.ts');
  writeFileSync(
    script,
    [
      `import { ChildLedger } from ${JSON.stringify(join(REPO, 'src/main/core/codex/children.ts'))};`,
      'const [file, base] = process.argv.slice(2);',
      'const ledger = new ChildLedger(file);',
      `for (let i = 1; i <= ${PER_PROCESS}; i++) {`,
      '  const pid = Number(base) + i;',
      '  ledger.add({ pid, startTime: "t", pgid: pid, sid: pid, boot: null, chatId: `c${base}`, bin: "codex", owner: { pid: 1, startTime: null }, recordedAt: new Date().toISOString() });',
      '}',
    ].join('\n'),
  );
  const run = (base: number) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, file, String(base)], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('close', resolve);
    });
  expect(await Promise.all([1000, 2000, 3000].map(run))).toEqual([0, 0, 0]);
  const pids = new ChildLedger(file)
    .list()
    .map((r) => r.pid)
    .sort((a, b) => a - b);
  const expected = [1000, 2000, 3000].flatMap((base) => Array.from({ length: PER_PROCESS }, (_, i) => base + i + 1));
  expect(pids).toEqual(expected);
  // Only the record is left beside it: no lock, no temp file.
  expect(readdirSync(join(dir, 'private'))).toEqual(['children.json']);
}, 60_000);
