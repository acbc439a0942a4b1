/**
 * Images a message gives the agent (core/chats/images.ts), on the disk: only a real image file directly
 * in the chat's profile `.inbox/` is taken, by its real path; it is copied into
 * `<state>/private/images/<uuid>/<name>` and that copy is what Codex gets. A link, a path outside the
 * inbox, a non-image named `.png`, a hard link, an oversized file or a `.inbox` that is a link are
 * refused with their own code, and then nothing is copied (the security boundary of
 * docs/security-model.md "What an image input lets Codex read").
 */
import { link, mkdir, readdir, readFile, realpath, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMAGES_DIR, profileFolder, readStoredImage, takeInboxImages } from '../../../src/main/core/chats/images';
import type { LoadedTable } from '../../../src/main/core/table/load';
import { MAX_IMAGE_BYTES } from '../../../src/shared/images';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

let root: string;
let cwd: string;
let inbox: string;
let priv: string;
let outside: string;

beforeEach(async () => {
  root = await makeTestDir('images');
  cwd = join(root, 'coder');
  inbox = join(cwd, '.inbox');
  priv = join(root, 'state', 'private');
  outside = join(root, 'outside');
  await mkdir(inbox, { recursive: true });
  await mkdir(priv, { recursive: true });
  await mkdir(outside);
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

/** Everything under `<private>/images` (nothing is copied when a message is refused). */
const copies = async (): Promise<string[]> => (await readdir(join(priv, IMAGES_DIR), { recursive: true }).catch(() => [])).sort();

describe('takeInboxImages: what is taken', () => {
  it('copies each image into the private store, in order, with its name, mode 600 in a folder of 700', async () => {
    await writeFile(join(inbox, 'shot.png'), PNG);
    await writeFile(join(inbox, 'photo.jpg'), JPEG);
    const refs = await takeInboxImages(cwd, priv, [join(inbox, 'shot.png'), join(inbox, 'photo.jpg')]);
    expect(refs.map((r) => r.name)).toEqual(['shot.png', 'photo.jpg']);
    for (const [i, r] of refs.entries()) {
      expect(r.path.startsWith(join(priv, IMAGES_DIR) + '/')).toBe(true);
      expect(await readFile(r.path)).toEqual(i === 0 ? PNG : JPEG);
      expect((await stat(r.path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(r.path, '..'))).mode & 0o777).toBe(0o700);
    }
    expect(refs[0]!.path).not.toBe(refs[1]!.path);
  });

  it('takes the inbox path as given or by its real path (a linked profile folder)', async () => {
    await writeFile(join(inbox, 'a.png'), PNG);
    const alias = join(root, 'alias');
    await symlink(cwd, alias);
    const [viaAlias] = await takeInboxImages(alias, priv, [join(alias, '.inbox', 'a.png')]);
    const [viaReal] = await takeInboxImages(alias, priv, [join(await realpath(inbox), 'a.png')]);
    expect(await readFile(viaAlias!.path)).toEqual(PNG);
    expect(await readFile(viaReal!.path)).toEqual(PNG);
  });

  it('the copy is what is read back for a thumbnail; nothing else under the state is', async () => {
    await writeFile(join(inbox, 'a.png'), PNG);
    const [ref] = await takeInboxImages(cwd, priv, [join(inbox, 'a.png')]);
    expect(await readStoredImage(priv, ref!.path)).toEqual({ mime: 'image/png', dataBase64: PNG.toString('base64') });
    await writeFile(join(priv, 'sessions.json'), '{}');
    for (const p of [
      join(priv, 'sessions.json'),
      join(priv, IMAGES_DIR, 'x.png'),
      join(inbox, 'a.png'),
      'relative.png',
      join(priv, IMAGES_DIR, '..', 'sessions.json'),
    ]) {
      expect((await failure(readStoredImage(priv, p))).code, p).toMatch(/^image-(unknown|missing)$/);
    }
  });
});

describe('takeInboxImages: what is refused, and then nothing is sent', () => {
  it('a symbolic link in the inbox pointing outside', async () => {
    await writeFile(join(outside, 'secret.png'), PNG);
    await symlink(join(outside, 'secret.png'), join(inbox, 'shot.png'));
    const e = await failure(takeInboxImages(cwd, priv, [join(inbox, 'shot.png')]));
    expect(e).toMatchObject({ code: 'image-link', message: expect.stringContaining('is a symbolic link') });
    expect(await copies()).toEqual([]);
  });

  it('a symbolic link in the inbox to another image in the inbox', async () => {
    await writeFile(join(inbox, 'a.png'), PNG);
    await symlink('a.png', join(inbox, 'b.png'));
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'b.png')]))).code).toBe('image-link');
  });

  it.each([
    ['a file outside the inbox', () => join(outside, 'a.png')],
    ['a file in the profile folder, not in .inbox', () => join(cwd, 'a.png')],
    ['a file in a folder below .inbox', () => join(inbox, 'sub', 'a.png')],
    ['a path climbing out of .inbox', () => join(inbox, '..', '..', 'outside', 'a.png')],
    ['a relative path', () => '.inbox/a.png'],
    ['the inbox itself', () => inbox],
  ])('%s', async (_name, path) => {
    await writeFile(join(outside, 'a.png'), PNG);
    await writeFile(join(cwd, 'a.png'), PNG);
    await mkdir(join(inbox, 'sub'));
    await writeFile(join(inbox, 'sub', 'a.png'), PNG);
    const e = await failure(takeInboxImages(cwd, priv, [path()]));
    expect(e.code).toBe('image-outside-inbox');
    expect(e.message).toContain('is not a file attached to this chat');
    expect(await copies()).toEqual([]);
  });

  it('a non-image named .png (by content), even after a good image', async () => {
    await writeFile(join(inbox, 'good.png'), PNG);
    await writeFile(join(inbox, 'fake.png'), 'not an image at all');
    const e = await failure(takeInboxImages(cwd, priv, [join(inbox, 'good.png'), join(inbox, 'fake.png')]));
    expect(e).toMatchObject({ code: 'image-not-image', message: `${join(inbox, 'fake.png')} is not a PNG, JPEG, GIF or WebP image (by its content)` });
    expect(await copies()).toEqual([]);
  });

  it('a hard link (its content is shared with a name elsewhere)', async () => {
    await writeFile(join(outside, 'a.png'), PNG);
    await link(join(outside, 'a.png'), join(inbox, 'a.png'));
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'a.png')]))).code).toBe('image-links');
  });

  it('a file over the size limit, a missing file, a folder', async () => {
    await writeFile(join(inbox, 'big.png'), PNG);
    await truncate(join(inbox, 'big.png'), MAX_IMAGE_BYTES + 1);
    await mkdir(join(inbox, 'dir.png'));
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'big.png')]))).code).toBe('image-too-large');
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'gone.png')]))).code).toBe('image-missing');
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'dir.png')]))).code).toBe('image-not-file');
    expect(await copies()).toEqual([]);
  });

  it('a .inbox that is a symbolic link (to a folder outside), or missing', async () => {
    await rm(inbox, { recursive: true });
    await writeFile(join(outside, 'a.png'), PNG);
    await symlink(outside, inbox);
    const e = await failure(takeInboxImages(cwd, priv, [join(inbox, 'a.png')]));
    expect(e).toMatchObject({ code: 'image-inbox', message: expect.stringContaining('is a symbolic link') });
    await rm(inbox);
    expect((await failure(takeInboxImages(cwd, priv, [join(inbox, 'a.png')]))).code).toBe('image-inbox');
    expect(await copies()).toEqual([]);
  });
});

describe('profileFolder', () => {
  it("answers the profile's folder, and names the table when the profile left it", () => {
    const table = { profiles: { coder: { cwd: '/w/coder' } } } as unknown as LoadedTable;
    expect(profileFolder(table, 'coder', 'c1', '/s/angelia.toml')).toBe('/w/coder');
    expect(() => profileFolder(table, 'gone', 'c1', '/s/angelia.toml')).toThrow(AppFailure);
  });
});
