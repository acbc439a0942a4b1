/**
 * The profile editor, the policy inspector and the model picker end to end through
 * `Orchestrator.api().handlers`, on the real Codex (0.169.0) and its Linux sandbox with the scripted model:
 * a preview of a new add_dir writes nothing; saving it keeps the table's comment, keeps a backup, accepts,
 * compiles (the launch guard allows the start) and verifies; the next start of the agent can write there;
 * the inspector shows the attested Codex version; `models:list` gives the bundled catalog; a new profile
 * is created with its folder and a starter CLAUDE.md; a file dropped into a chat lands in `.inbox/`.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { launchReasons } from '../../src/main/core/launch/check';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

type Payload<E extends AppEvent['event']> = Extract<AppEvent, { event: E }>['payload'];

/** Every payload of `event` emitted from now on. */
function collect<E extends AppEvent['event']>(o: Orchestrator, event: E): Array<Payload<E>> {
  const out: Array<Payload<E>> = [];
  o.hub.subscribe((e) => {
    if (e.event === event) out.push(e.payload as Payload<E>);
  });
  return out;
}

const COMMENT = '# coder — keep this comment: it is mine\n';

// A save verifies: ~25 real sandboxes one after another. A generous budget for a loaded machine.
describe('the profile editor on real codex', { timeout: 300_000 }, () => {
  it('previews, saves (comment kept, backup, accepted, compiled, verified), and the next start uses it', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths, outside } = inst;
    const table = `${COMMENT}${await readFile(paths.tableFile, 'utf8')}`;
    await writeFile(paths.tableFile, table);
    orch = await Orchestrator.create({ paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
    const api = orch.api().handlers;
    const profilesChanged = collect(orch, 'profiles:changed');
    const tableChanged = collect(orch, 'table:changed');

    const draft = { ...(await api['profiles:get']({ name: 'coder' })), add_dirs: [outside] };
    const preview = await api['profiles:preview']({ draft, original: 'coder' });
    expect(preview).toMatchObject({ valid: true, errors: [] });
    expect(preview.plan[0]).toEqual({ kind: '+', text: `write ${outside} (add_dirs)` });
    expect(preview.entries).toContainEqual({ path: outside, access: 'write', origin: 'add_dirs', note: 'add_dirs', symlinkTarget: null });
    expect(await readFile(paths.tableFile, 'utf8')).toBe(table);
    expect(existsSync(`${paths.tableFile}.bak`)).toBe(false);

    const saved = await api['profiles:save']({ draft, original: 'coder' });
    const written = await readFile(paths.tableFile, 'utf8');
    expect(written.startsWith(COMMENT)).toBe(true);
    expect(written).toBe(table.replace('permission_mode = "default"\n', `permission_mode = "default"\nadd_dirs = ["${outside}"]\n`));
    expect(saved).toMatchObject({ profile: 'coder', tableFile: paths.tableFile, backupFile: `${paths.tableFile}.bak` });
    expect(await readFile(`${paths.tableFile}.bak`, 'utf8')).toBe(table);
    expect(statSync(`${paths.tableFile}.bak`).mode & 0o777).toBe(0o600);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(written);
    expect(await launchReasons(paths.stateDir, { name: 'coder', cwd: inst.cwd.coder!, backend: 'codex', sandbox: true, permissionMode: 'default' })).toEqual(
      [],
    );
    expect(saved.verify).toMatchObject({ profile: 'coder', codexVersion: '0.171.0', pass: true });
    expect(saved.verify?.probes.find((p) => p.path === outside && p.op === 'write')).toMatchObject({ expected: 'allowed', pass: true });
    expect(profilesChanged).toContainEqual({ names: ['coder'] });
    expect(tableChanged.at(-1)).toEqual({ differs: false, changes: 0 });
    expect(orch.profileViews()[0]?.addDirs).toEqual([outside]);

    // The next start runs on the saved profile: the agent may write the new folder.
    const target = join(outside, 'from-agent.txt');
    inst.model.enqueue({ exec: { cmd: `echo hi > ${target}`, login: false } }, { message: 'written' });
    const chat = orch.chat('coder');
    chat.send('write it');
    await chat.idle();
    expect(chat.transcript.all().find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(await readFile(target, 'utf8')).toBe('hi\n');

    // The inspector: the table in force, attested against the Codex that ran the turn.
    const policy = await api['profiles:policy']({ name: 'coder' });
    expect(policy).toMatchObject({ profile: 'coder', valid: true, attestedCodexVersion: '0.171.0', enforcement: 'managed', network: { enabled: true } });
    expect(policy.attestedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(policy.entries).toContainEqual(expect.objectContaining({ path: outside, access: 'write', origin: 'add_dirs' }));
    expect(policy.plan[0]).toEqual({ kind: 'note', text: 'up to date: compile would change nothing' });

    // The model picker: the catalog bundled in the pinned Codex, through a short-lived app-server.
    const { models, codexConfig, tableEfforts } = await api['models:list']({ profile: 'coder' });
    expect(models.map((m) => m.id)).toContain('gpt-5.5');
    expect(models.filter((m) => m.isDefault)).toHaveLength(1);
    // What "default" really means for this profile: Codex's own config (config/read), and where it is set.
    expect(codexConfig).toEqual({
      model: { value: 'gpt-5.5', source: `your Codex config (${join(paths.codexHome, 'config.toml')})` },
      effort: null,
      error: null,
    });
    expect(tableEfforts).toEqual(['low', 'medium', 'high', 'xhigh', 'max']);

    // A file dropped into the chat lands in the profile's .inbox, mode 600.
    const { path } = await api['chats:attach']({ chatId: 'coder', name: '../notes.txt', dataBase64: Buffer.from('dropped').toString('base64') });
    expect(path).toBe(join(inst.cwd.coder!, '.inbox', '_notes.txt'));
    expect(await readFile(path, 'utf8')).toBe('dropped');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('creates a profile: its folder (700), a starter CLAUDE.md, the table section, a chat, and a passing verify', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const { paths } = inst;
    orch = await Orchestrator.create({ paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
    const api = orch.api().handlers;
    const before = await readFile(paths.tableFile, 'utf8');
    const cwd = join(inst.root, 'work', 'scribe');
    const draft = { ...(await api['profiles:get']({ name: 'coder' })), name: 'scribe', cwd, permission_mode: 'acceptEdits' as const };

    const preview = await api['profiles:preview']({ draft, original: null });
    expect(preview).toMatchObject({ valid: true, plan: expect.arrayContaining([{ kind: '+', text: `folder ${cwd} (mode 700)` }]) as unknown });
    expect(existsSync(cwd)).toBe(false);

    const saved = await api['profiles:create']({ draft, starterClaudeMd: true });
    expect(statSync(cwd).mode & 0o777).toBe(0o700);
    const claude = await readFile(join(cwd, 'CLAUDE.md'), 'utf8');
    expect(claude.startsWith('# scribe\n')).toBe(true);
    expect(await readFile(paths.tableFile, 'utf8')).toBe(`${before}\n[profiles.scribe]\ncwd = "${cwd}"\npermission_mode = "acceptEdits"\n`);
    expect(saved.verify).toMatchObject({ profile: 'scribe', pass: true });
    expect((await api['chats:list']({})).map((c) => c.id)).toEqual(['coder', 'scribe']);
    expect((await api['profiles:list']({})).map((p) => p.name)).toEqual(['coder', 'scribe']);
    await expect(api['profiles:create']({ draft, starterClaudeMd: false })).rejects.toThrow(/already exists/);
  });
});
