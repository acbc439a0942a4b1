/**
 * A table that takes something away, accepted while a chat's Codex is still starting (a warm start after the
 * chat was shown, or a turn's own start), reaches that agent before the model gets the turn (real codex, real
 * sandbox): sight.ts checks only running processes, so the turn's start checks a process planned under an
 * older table again (chats/restart.ts `recheckSight`) and restarts it, resuming the thread, when the new table
 * takes away what it could still see (docs/security-model.md "Filesystem: private by default").
 * The probe reads a file of a folder capability and writes beside it; the new table denies that folder.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { loadTable } from '../../src/main/core/table/load';
import { writeCompiled } from '../fixtures/compiled';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

const SECRET = 'SHARED-SECRET-41';
let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** An instance whose profile `coder` has the folder capability `shared` (holding the secret), accepted and compiled. */
async function setup() {
  inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } }, { privateHome: true });
  const i = inst;
  const shared = join(i.root, 'shared');
  await mkdir(shared, { recursive: true });
  await writeFile(join(shared, 'secret.txt'), `${SECRET}\n`);
  const write = (coder: Record<string, unknown>) =>
    writeFile(
      i.paths.tableFile,
      stringify({
        capabilities: { shared: { kind: 'directory', path: shared } },
        profiles: { coder: { cwd: i.cwd.coder, permission_mode: 'acceptEdits', ...coder } },
      }),
    );
  await write({ capabilities: ['shared'] });
  await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  orch = o;
  const written = join(shared, 'written.txt');
  const probe = `cat '${join(shared, 'secret.txt')}'; echo pwned > '${written}'; exit 0`;
  /** Denies the folder in the table and accepts it (a tightening: no compile needed). */
  const tighten = async () => {
    await write({ deny: ['shared'] });
    await o.api().handlers['table:accept']({});
  };
  return { i, o, probe, written, tighten };
}

/** What the model was sent back for the turn's commands (Codex's function_call_output items). */
function outputs(i: TestInstance): string {
  return JSON.stringify(
    i.model
      .modelRequests()
      .flatMap((r) => (Array.isArray(r.body?.input) ? r.body.input : []))
      .filter((it) => it.type === 'function_call_output'),
  );
}

describe('a table accepted while a Codex starts reaches that agent before its turn (real codex)', { timeout: 240_000 }, () => {
  it('a warm start (the chat shown), the table tightened during it, then a message: the agent cannot read or write the folder', async () => {
    const { i, o, probe, written, tighten } = await setup();
    const c = o.chat('coder');
    await o.api().handlers['chats:shown']({ chatId: 'coder' });
    await until('the warm start is under way', () => (c.starting !== null ? true : null));
    await tighten();
    i.model.enqueue({ exec: { cmd: probe, login: false } }, { message: 'first' });
    const before = c.transcript.all().length;
    c.send('look');
    await c.idle();
    expect(outputs(i)).not.toContain(SECRET);
    expect(existsSync(written)).toBe(false);
    const notices = c.transcript
      .all()
      .slice(before)
      .filter((x) => x.type === 'notice')
      .map((x) => (x as { text: string }).text);
    expect(notices.join('\n')).toMatch(/takes away from profile coder/);
  });

  it("a turn's own start, the table tightened during it: that turn's command cannot read or write the folder", async () => {
    const { i, o, probe, written, tighten } = await setup();
    const c = o.chat('coder');
    i.model.enqueue({ exec: { cmd: probe, login: false } }, { message: 'first' });
    c.send('look');
    await until('the start is under way', () => (c.starting !== null ? true : null));
    await tighten();
    await c.idle();
    expect(outputs(i)).not.toContain(SECRET);
    expect(existsSync(written)).toBe(false);
  });
});
