/**
 * A running chat never gains sight of a profile added, or keeps sight of a folder denied, after it
 * started (docs/security-model.md "Filesystem: private by default"), on REAL Codex (0.169.0, Linux
 * bubblewrap) through the orchestrator the hosts use; only the model is scripted. Profile coder's chat
 * runs with a directory capability `shared`; then a table is accepted that adds profile `newbie` and
 * denies `shared` to coder. The chat's next command reads neither `newbie`'s folder (never granted) nor
 * `shared` (the chat restarted before that turn, resuming its thread, and said so). Measured before:
 * the running chat read both.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { loadTable } from '../../src/main/core/table/load';
import { makeInstance, turnOn, type TestInstance, commandItems } from '../fixtures/instance';
import { writeCompiled } from '../fixtures/compiled';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const commands = commandItems;

describe('a running chat and a table accepted while it runs (real codex)', () => {
  it('its next command reads neither a profile added since nor a folder denied since; it restarted first and said so', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } }, { privateHome: true });
    const i = inst;
    const shared = join(i.root, 'shared');
    const newbie = join(i.root, 'work', 'newbie');
    for (const [dir, text] of [
      [shared, 'SHARED-SECRET-41'],
      [newbie, 'NEWBIE-SECRET-42'],
    ] as const) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'secret.txt'), `${text}\n`);
    }
    const write = async (profiles: Record<string, Record<string, unknown>>): Promise<void> => {
      await writeFile(i.paths.tableFile, stringify({ capabilities: { shared: { kind: 'directory', path: shared } }, profiles }));
    };
    await write({ coder: { cwd: i.cwd.coder, permission_mode: 'acceptEdits', capabilities: ['shared'] } });
    await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));

    const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
    orch = o;
    const probe = `cat '${join(shared, 'secret.txt')}'; cat '${join(newbie, 'secret.txt')}'; exit 0`;
    i.model.enqueue({ exec: { cmd: probe, login: false } }, { message: 'first' });
    const first = await turnOn(o, 'coder', 'look around');
    expect(first.find((x) => x.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    // The grant in force: the shared folder is the chat's; the folder that is no profile yet is not.
    expect(commands(first).at(-1)?.output).toContain('SHARED-SECRET-41');
    expect(commands(first).at(-1)?.output).not.toContain('NEWBIE-SECRET-42');
    const threadBefore = o.sessionViews('coder')[0]?.threadId;

    // While the chat's Codex runs: a table that adds profile newbie and denies shared to coder is accepted.
    await write({
      coder: { cwd: i.cwd.coder, permission_mode: 'acceptEdits', deny: ['shared'] },
      newbie: { cwd: newbie, permission_mode: 'acceptEdits' },
    });
    await o.api().handlers['table:accept']({});
    expect(await readFile(i.paths.acceptedTable, 'utf8')).toContain('newbie');

    i.model.enqueue({ exec: { cmd: probe, login: false } }, { message: 'second' });
    const second = await turnOn(o, 'coder', 'look again');
    expect(second.find((x) => x.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    const out = commands(second).at(-1)?.output ?? '';
    expect(out).not.toContain('SHARED-SECRET-41');
    expect(out).not.toContain('NEWBIE-SECRET-42');
    // It said so, before the turn, and the conversation went on in the same thread.
    const notices = second.filter((x) => x.type === 'notice').map((x) => (x as { text: string }).text);
    expect(
      notices.some((t) => /restarted/i.test(t) && t.includes(shared)),
      notices.join('\n'),
    ).toBe(true);
    expect(o.sessionViews('coder')[0]?.threadId).toBe(threadBefore);
  });
});
