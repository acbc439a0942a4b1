/**
 * The editor's preview and the refusals of a save, without Codex: the table as it would be is loaded by
 * the real loader and described by the compiler (entries with their origin, plan, argv), nothing is
 * written; invalid drafts name `profiles.<name>.<field>` and the fix; edits made elsewhere block a save.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheDirFor } from '../../../src/main/core/compile/cache';
import { resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';
import { originOf } from '../../../src/main/core/profiles/policyView';
import { ProfileService } from '../../../src/main/core/profiles/service';
import { loadAccepted } from '../../../src/main/core/table/accepted';
import type { ProfileDraft } from '../../../src/shared/contract';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let paths: InstancePaths;
let svc: ProfileService;
let site: string;

const TABLE = [
  '# my assistants',
  '[capabilities.docs]',
  'kind = "directory"',
  'path = "docs"',
  '[capabilities.vault]',
  'kind = "skill"',
  'path = "_capabilities/skills/vault"',
  'secrets = ["~/.vault-key"]',
  '',
  '[profiles.coder]   # the coder',
  'cwd = "profiles/coder"',
  'permission_mode = "default"',
  'capabilities = ["docs"]',
  'deny = ["vault"]',
  '',
  '[profiles.other]',
  'cwd = "profiles/other"',
  '',
].join('\n');

beforeEach(async () => {
  root = await makeTestDir('profiles-preview');
  paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state') });
  site = join(root, 'site');
  for (const d of ['profiles/coder', 'profiles/other', 'docs', '_capabilities/skills/vault', '_shared'])
    await mkdir(join(paths.workspace, d), { recursive: true });
  await writeFile(join(paths.workspace, '_capabilities/skills/vault/SKILL.md'), '---\nname: vault\n---\n');
  await mkdir(site, { recursive: true });
  await writeFile(paths.tableFile, TABLE);
  await loadAccepted(paths, { home: paths.home, env: {} });
  svc = new ProfileService({ paths, env: { HOME: paths.home, PATH: process.env.PATH ?? '' } });
});
afterEach(async () => removeTestDir(root));

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'must fail').toBeInstanceOf(AppFailure);
  return (e as AppFailure).app;
}

async function untouched(): Promise<void> {
  expect(await readFile(paths.tableFile, 'utf8')).toBe(TABLE);
  expect(existsSync(`${paths.tableFile}.bak`)).toBe(false);
}

describe('the draft of a profile', () => {
  it('is the table as written, defaults filled in', async () => {
    expect(await svc.getDraft('coder')).toEqual({
      name: 'coder',
      cwd: 'profiles/coder',
      bin: null,
      permission_mode: 'default',
      sandbox: true,
      add_dirs: [],
      model: null,
      effort: null,
      read_dirs: null,
      capabilities: ['docs'],
      except: [],
      deny: ['vault'],
      unsafe_ok: false,
      isolated: false,
      shared_write: false,
      accept_from: [],
      answer_from: [],
      backend: 'codex',
      media_tags: false,
      env: [],
      notifications: 'all',
    });
    expect(await failure(svc.getDraft('nobody'))).toMatchObject({ code: 'profile-unknown', where: `${paths.tableFile}: profiles.nobody` });
  });
});

describe('the preview: read grants (HOME is private by default)', () => {
  it('lists each read grant with its source: read_dirs, the starter set that exists, skills, what commands need to run', async () => {
    await mkdir(join(paths.home, '.local', 'bin'), { recursive: true });
    await mkdir(join(root, 'notes'), { recursive: true });
    const starter = await svc.preview(await svc.getDraft('coder'), 'coder');
    const at = (p: typeof starter, path: string) => p.entries.find((e) => e.path === path);
    expect(at(starter, join(paths.home, '.local', 'bin'))).toMatchObject({
      access: 'read',
      origin: 'read_dirs:starter',
      note: 'read_dirs (starter set: a toolchain in your home)',
    });
    expect(at(starter, join(paths.home, '.nvm'))).toBeUndefined();
    expect(starter.entries.filter((e) => e.origin === 'runtime').map((e) => e.access)).toEqual(expect.arrayContaining(['read']));
    const named = await svc.preview({ ...(await svc.getDraft('coder')), read_dirs: [join(root, 'notes')] }, 'coder');
    expect(at(named, join(root, 'notes'))).toMatchObject({ access: 'read', origin: 'read_dirs', note: 'read_dirs' });
    expect(at(named, join(paths.home, '.local', 'bin'))).toBeUndefined();
    expect(named.plan).toContainEqual({ kind: '+', text: `read ${join(root, 'notes')} (read_dirs)` });
  });
});

describe('the preview', () => {
  it('shows a new add_dir in the plan and the entries (origin add_dirs), and writes nothing', async () => {
    const draft = { ...(await svc.getDraft('coder')), add_dirs: [site] };
    const p = await svc.preview(draft, 'coder');
    expect(p).toMatchObject({ profile: 'coder', valid: true, errors: [], network: { enabled: true } });
    expect(p.plan[0]).toEqual({ kind: '+', text: `write ${site} (add_dirs)` });
    expect(p.entries).toContainEqual({ path: site, access: 'write', origin: 'add_dirs', note: 'add_dirs', symlinkTarget: null });
    expect(p.codexArgs.at(-1)).toBe('app-server');
    expect(p.codexArgs).toContain('default_permissions="angelia"');
    expect(p.codexArgs.join(' ')).toContain(`"${site}" = "write"`);
    await untouched();
  });

  it("gives every entry its origin, from the compiler's own sources", async () => {
    const p = await svc.preview(await svc.getDraft('coder'), 'coder');
    const origin = (path: string): string | undefined => p.entries.find((e) => e.path === path)?.origin;
    expect(p.entries[0]).toMatchObject({ path: ':minimal', access: 'read', origin: 'mode' });
    expect(origin(join(paths.workspace, 'profiles/coder'))).toBe('cwd');
    expect(origin(join(paths.workspace, 'profiles/other'))).toBe('floor');
    expect(origin(join(paths.home, '.ssh'))).toBe('floor');
    expect(origin(cacheDirFor(paths.stateDir, 'coder'))).toBe('cache');
    expect(origin(join(paths.workspace, '_shared'))).toBe('shared');
    expect(origin(join(paths.workspace, 'profiles/coder/.claude'))).toBe('launch');
    expect(origin(join(paths.workspace, 'docs'))).toBe('capability:docs');
    expect(origin(join(paths.workspace, '_capabilities/skills/vault'))).toBe('capability:vault');
    expect(origin(join(paths.home, '.vault-key'))).toBe('capability:vault');
    expect(origin(join(paths.workspace, '_common'))).toBe('common');
    expect(p.entries.filter((e) => e.origin === 'compile')).toEqual([]);
    expect(originOf('something new')).toBe('compile');
    // The plan says what compile --write would do for a profile never compiled.
    expect(p.plan.map((l) => l.kind)).toContain('+');
    expect(p.plan).toContainEqual({ kind: '+', text: 'launch guard' });
  });

  it('shows what the mode changes: plan mode reads only, no sandbox is full access (with its warning)', async () => {
    const draft = await svc.getDraft('coder');
    const plan = await svc.preview({ ...draft, permission_mode: 'plan' }, 'coder');
    const cwd = join(paths.workspace, 'profiles/coder');
    expect(plan.plan).toContainEqual({ kind: '~', text: `${cwd}: write → read (this profile's folder; read-only in plan mode)` });
    expect(plan.entries[0]).toMatchObject({
      path: ':minimal',
      access: 'read',
      origin: 'mode',
      note: expect.stringContaining('nothing is writable') as unknown,
    });
    expect(plan.entries.find((e) => e.path === cwd)).toMatchObject({ access: 'read', origin: 'cwd' });
    expect(plan.entries.filter((e) => e.access === 'write')).toEqual([]);

    const open = await svc.preview({ ...draft, sandbox: false }, 'coder');
    expect(open.plan[0]).toEqual({ kind: '~', text: 'sandbox: on → OFF (full access)' });
    expect(open.entries).toEqual([
      { path: '/', access: 'write', origin: 'mode', note: expect.stringContaining('full access') as unknown, symlinkTarget: null },
    ]);
    expect(open.warnings).toContainEqual(expect.objectContaining({ path: ['profiles', 'coder', 'sandbox'] }));
    expect(open.codexArgs).not.toContain('default_permissions="angelia"');
    await untouched();
  });

  it('shows where a symlinked folder really points, with a warning', async () => {
    const link = join(root, 'site-link');
    await symlink(site, link);
    const p = await svc.preview({ ...(await svc.getDraft('coder')), add_dirs: [link] }, 'coder');
    expect(p.entries.find((e) => e.path === link)).toMatchObject({ origin: 'add_dirs', symlinkTarget: site });
    expect(p.warnings).toContainEqual(
      expect.objectContaining({ path: ['profiles', 'coder', 'add_dirs', '0'], message: expect.stringContaining(`is a link to ${site}`) as unknown }),
    );
  });

  it('names the field and the fix of an invalid draft, and a save writes nothing', async () => {
    const draft = await svc.getDraft('coder');
    const bad = await svc.preview({ ...draft, effort: 'bogus' }, 'coder');
    expect(bad.valid).toBe(false);
    expect(bad.errors).toEqual([
      {
        path: ['profiles', 'coder', 'effort'],
        message: expect.stringContaining('"bogus" is not allowed') as unknown,
        fix: 'use one of low, medium, high, xhigh, max, or leave it out',
      },
    ]);

    const relative: ProfileDraft = { ...draft, add_dirs: ['src/secret'] };
    const r = await svc.preview(relative, 'coder');
    expect(r.errors[0]).toEqual({
      path: ['profiles', 'coder', 'add_dirs', '0'],
      message: '"src/secret" is a relative path; the editor takes only absolute paths or ~/…',
      fix: expect.stringMatching(/^use ~\/… or an absolute path/) as unknown,
    });
    expect(await failure(svc.save(relative, 'coder'))).toMatchObject({
      code: 'profile-invalid',
      where: `${paths.tableFile}: profiles.coder.add_dirs[0]`,
      fix: expect.stringMatching(/^use ~\/… or an absolute path/) as unknown,
    });
    expect(await failure(svc.save({ ...draft, cwd: '/nowhere/at/all' }, 'coder'))).toMatchObject({
      code: 'profile-invalid',
      where: `${paths.tableFile}: profiles.coder.cwd`,
    });
    expect(await failure(svc.save({ ...draft, name: 'other' }, 'coder'))).toMatchObject({
      code: 'profile-invalid',
      where: `${paths.tableFile}: profiles.other`,
      message: expect.stringContaining('already exists') as unknown,
    });
    await untouched();
  });

  it('previews a new profile whose folder does not exist yet (create makes it); a plain save refuses it', async () => {
    const cwd = join(root, 'new-home');
    const draft: ProfileDraft = { ...(await svc.getDraft('other')), name: 'fresh', cwd };
    const p = await svc.preview(draft, null);
    expect(p.valid).toBe(true);
    expect(p.plan[0]).toEqual({ kind: '+', text: `folder ${cwd} (mode 700)` });
    expect(p.plan.filter((l) => l.kind === 'CONFLICT')).toEqual([]);
    expect(p.warnings[0]).toEqual({
      path: ['profiles', 'fresh', 'cwd'],
      message: `${cwd} does not exist yet`,
      fix: 'creating the profile makes it (mode 700)',
    });
    expect(p.entries.find((e) => e.origin === 'cwd')?.path).toBe(cwd);
    expect(p.entries).toContainEqual(expect.objectContaining({ path: join(paths.workspace, 'profiles/coder'), access: 'deny', origin: 'floor' }));
    expect(await failure(svc.save(draft, null))).toMatchObject({ code: 'profile-invalid', where: `${paths.tableFile}: profiles.fresh.cwd` });
    expect(existsSync(cwd)).toBe(false);
    await untouched();
  });

  it('refuses to save while the table on disk has changes made elsewhere (they would be accepted unseen)', async () => {
    const edited = TABLE.replace('cwd = "profiles/other"', `cwd = "profiles/other"\nadd_dirs = ["${site}"]`);
    await writeFile(paths.tableFile, edited);
    const draft = await svc.getDraft('coder');
    const p = await svc.preview(draft, 'coder');
    expect(p.warnings[0]).toMatchObject({ path: [], message: expect.stringContaining('1 change(s) made outside the editor') as unknown });
    expect(await failure(svc.save(draft, 'coder'))).toMatchObject({ code: 'table-not-accepted', where: paths.tableFile });
    expect(await readFile(paths.tableFile, 'utf8')).toBe(edited);
    expect((await svc.tableChanges()).changes).toEqual([{ path: ['profiles', 'other', 'add_dirs'], kind: 'item-added', after: site }]);
  });
});
