/**
 * "The table changed" end to end through `Orchestrator.api()`: an edit on disk (in place, or by an atomic
 * rename as editors save) emits `table:changed` with `differs: true`; `table:changes` lists the field diff;
 * `table:accept` takes it (new starts use it, `profiles:changed` names the profile); `table:discard` puts
 * the accepted text back and keeps the discarded text as `angelia.toml.bak`.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** The next event of `o` that `accept` takes (subscribe before causing it); resolves with its payload. */
function next(o: Orchestrator, accept: (e: AppEvent) => boolean): Promise<unknown> {
  return new Promise((resolve) => {
    const off = o.hub.subscribe((e) => {
      if (!accept(e)) return;
      off();
      resolve(e.payload);
    });
  });
}

const differs =
  (want: boolean) =>
  (e: AppEvent): boolean =>
    e.event === 'table:changed' && e.payload.differs === want;

describe('the table changed on disk', () => {
  it('is seen, listed field by field, accepted, and discarded', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths, outside } = inst;
    orch = await Orchestrator.create({ paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
    const api = orch.api().handlers;
    const original = await readFile(paths.tableFile, 'utf8');
    expect(await api['table:changes']({})).toMatchObject({ tableFile: paths.tableFile, differs: false, changes: [], error: null });

    // An edit in place: someone gives the agent a folder outside.
    const seen = next(orch, differs(true));
    const edited = original.replace(`permission_mode = "default"`, `permission_mode = "default"\nadd_dirs = [ "${outside}" ]`);
    await writeFile(paths.tableFile, edited);
    expect(await seen).toEqual({ differs: true, changes: 1 });
    expect(await api['table:changes']({})).toMatchObject({
      differs: true,
      changes: [{ path: ['profiles', 'coder', 'add_dirs'], kind: 'item-added', after: outside }],
      error: null,
    });
    expect(orch.profileViews()[0]?.addDirs).toEqual([]);

    // Accepting it: the accepted copy is the table, new starts use it, the profile is named as changed.
    const changedProfiles = next(orch, (e) => e.event === 'profiles:changed');
    const cleared = next(orch, differs(false));
    expect(await api['table:accept']({})).toMatchObject({ differs: false, changes: [] });
    expect(await changedProfiles).toEqual({ names: ['coder'] });
    expect(await cleared).toEqual({ differs: false, changes: 0 });
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(edited);
    expect(orch.profileViews()[0]?.addDirs).toEqual([outside]);

    // A save by rename (how editors and write-file-atomic write) is seen too; it does not load.
    const renamed = next(orch, differs(true));
    const broken = `${edited}sanbox = false\n`;
    await writeFile(`${paths.tableFile}.tmp-edit`, broken);
    await rename(`${paths.tableFile}.tmp-edit`, paths.tableFile);
    expect(await renamed).toMatchObject({ differs: true });
    const view = await api['table:changes']({});
    expect(view.changes).toEqual([{ path: ['profiles', 'coder', 'sanbox'], kind: 'added', after: false }]);
    expect(view.error).toMatchObject({ where: `${paths.tableFile}: profiles.coder.sanbox`, fix: expect.stringContaining('did you mean "sandbox"') as unknown });
    await expect(api['table:accept']({})).rejects.toThrow(/sanbox/);

    // Discarding it puts the accepted text back and keeps the discarded one.
    const restored = next(orch, differs(false));
    expect(await api['table:discard']({})).toMatchObject({ differs: false, changes: [], error: null });
    expect(await restored).toEqual({ differs: false, changes: 0 });
    expect(await readFile(paths.tableFile, 'utf8')).toBe(edited);
    expect(await readFile(`${paths.tableFile}.bak`, 'utf8')).toBe(broken);
  });
});
