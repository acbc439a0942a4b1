/**
 * send-media path checks (docs/security-model.md "Files the API copies") through the real route on a real socket: every credential,
 * system and state location is refused (as given, through `~/`, quoted, through a symbolic link, and a
 * hard link to a private file by identity), as are secrets folders (case- and Unicode-folded) and
 * credential file names; the asking profile's Read rules apply to agents; only regular non-empty files
 * within 25 MiB pass, and what passes is sent as a private copy (mode 600) in the state folder, read
 * through a descriptor that refuses a file swapped after the check. `/send` MEDIA lines and `/turn`
 * files take the same checks.
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, readFile, readdir, rename, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOME_PRIVATE_DIRS, HOME_PRIVATE_DIRS_MACOS, HOME_PRIVATE_FILES } from '../../src/main/core/compile/floor';
import {
  checkMedia,
  HOME_REFUSED_DIRS,
  LOCATION_REFUSED,
  READ_DENIED,
  readChecked,
  REFUSED_SEGMENTS,
  SYSTEM_DIRS,
  type MediaPlaces,
} from '../../src/main/api/media';
import type { ApiError } from '../../src/main/api/errors';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

let dirs: ApiDirs;
let fake: FakeApiCore;
let t: TestApi;
let codexHome: string;
let otherState: string;
let places: MediaPlaces;

async function put(path: string, content: string | Buffer = 'data'): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

beforeAll(async () => {
  dirs = await apiDirs();
  codexHome = join(dirs.root, 'codex-home');
  otherState = join(dirs.root, 'other-state');
  await mkdir(codexHome, { recursive: true });
  fake = createFakeApiCore({
    cwd: { coder: dirs.outside },
    deny: { coder: [`Read(${join(dirs.outside, 'private')}/**)`, `Edit(${join(dirs.outside, 'readonly')}/**)`] },
  });
  t = await startTestApi(fake.core, dirs, { codexHome, env: { ANGELIA_STATE_DIR: otherState } });
  places = { home: dirs.home, stateDirs: [dirs.state, join(dirs.home, '.angelia'), otherState], codexHome };
});

afterAll(async () => {
  await t.api.close();
  await dirs.cleanup();
});

beforeEach(() => {
  fake.posts.length = 0;
  fake.attached.length = 0;
});

function sendMedia(path: string, who: 'owner' | 'chat' = 'owner', extra: Record<string, unknown> = {}): ReturnType<typeof call> {
  return call(dirs.socket, 'POST', '/send-media', { token: who === 'owner' ? t.owner : t.tokenFor('coder'), body: { key: 'coder', path, ...extra } });
}

async function mediaCopies(): Promise<string[]> {
  return readdir(join(dirs.state, 'media')).catch(() => []);
}

/** Every credential location the send-media check refuses (listed in src/main/api/media.ts), as files that exist on disk. */
async function credentialLocations(): Promise<{ what: string; path: string }[]> {
  const h = (rel: string): string => join(dirs.home, rel);
  const out: { what: string; path: string }[] = [];
  for (const d of [...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS, ...HOME_REFUSED_DIRS])
    out.push({ what: `~/${d}/`, path: await put(join(h(d), 'notes.txt')) });
  for (const f of HOME_PRIVATE_FILES) out.push({ what: `~/${f}`, path: await put(h(f)) });
  out.push({ what: 'CODEX_HOME', path: await put(join(codexHome, 'sessions', 'rollout.jsonl')) });
  out.push({ what: 'CODEX_HOME/auth.json', path: await put(join(codexHome, 'auth.json')) });
  for (const s of [dirs.state, join(dirs.home, '.angelia'), otherState]) {
    for (const rel of [
      'env',
      'api.token',
      'sessions.json',
      'audit.jsonl',
      'compiled/coder.json',
      'logs/angelia.log',
      'children.json',
      'exports/coder.md',
      'private/api.token',
      'private/sessions.json',
      'private/sessions.json.bak',
      'private/children.json',
      'private/audit.jsonl',
    ]) {
      out.push({ what: `state ${rel}`, path: await put(join(s, rel)) });
    }
  }
  for (const seg of [...REFUSED_SEGMENTS, 'Secrets', 'CREDENTIALS', 'KeyChains', '\uff33\uff25\uff23\uff32\uff25\uff34\uff33']) {
    out.push({ what: `segment ${seg}`, path: await put(join(dirs.outside, seg, 'plain.txt')) });
  }
  for (const name of [
    '.env',
    '.env.local',
    '.ENV',
    '.netrc',
    '.npmrc',
    '.pypirc',
    '.pgpass',
    '.vault-token',
    '.git-credentials',
    '.python_history',
    'credentials',
    'credentials.toml',
    'id_rsa',
    'id_ed25519.pub',
    'server.pem',
    'tls.key',
    'cert.p12',
    'cert.pfx',
    'app.keystore',
    'trust.jks',
    'github-token.json',
    'auth.json',
    'gcp-credentials-prod.json',
  ]) {
    out.push({ what: `name ${name}`, path: await put(join(dirs.outside, 'names', name)) });
  }
  return out;
}

describe('send-media refuses every credential location', () => {
  it('system folders, even where they do not exist', async () => {
    for (const d of SYSTEM_DIRS) {
      const res = await sendMedia(join(d, 'passwd'));
      expect(res.status, d).toBe(403);
      expect(res.body).toEqual({ error: LOCATION_REFUSED, code: 'media-refused' });
    }
    for (const p of ['/etc/hostname', '/proc/self/status', '/dev/null']) expect((await sendMedia(p)).status, p).toBe(403);
  });

  it("home credential folders and files, Codex's home, Angelia's state folders, secrets folders and credential names", async () => {
    const locations = await credentialLocations();
    expect(locations.length).toBeGreaterThan(60);
    for (const { what, path } of locations) {
      for (const who of ['owner', 'chat'] as const) {
        const res = await sendMedia(path, who);
        expect(res.status, `${what} as ${who}`).toBe(403);
        expect(res.body, what).toEqual({ error: LOCATION_REFUSED, code: 'media-refused' });
      }
    }
    expect(fake.posts).toEqual([]);
    expect(await mediaCopies()).toEqual([]);
  });

  it('the same through ~/, quotes and trailing punctuation, a symbolic link, and a hard link to a private file', async () => {
    await put(join(dirs.home, '.aws', 'config.txt'));
    await put(join(dirs.state, 'env'), 'SECRET=1\n');
    await symlink(join(dirs.home, '.aws', 'config.txt'), join(dirs.outside, 'innocent.txt'));
    await symlink(join(dirs.home, '.ssh'), join(dirs.outside, 'keys'));
    await put(join(dirs.home, '.ssh', 'plain.txt'));
    await link(join(dirs.state, 'env'), join(dirs.outside, 'hardlink.txt'));
    for (const p of [
      '~/.aws/config.txt',
      `"${join(dirs.home, '.aws', 'config.txt')}".`,
      join(dirs.outside, 'innocent.txt'),
      join(dirs.outside, 'keys', 'plain.txt'),
      join(dirs.outside, 'hardlink.txt'),
      join(dirs.outside, '..', 'home', '.aws', 'config.txt'),
    ]) {
      const res = await sendMedia(p, 'chat');
      expect(res.status, p).toBe(403);
      expect(res.body, p).toEqual({ error: LOCATION_REFUSED, code: 'media-refused' });
    }
  });

  it("the asking agent's Read rules (also through a link); the owner is not bound by them, nor by Edit rules", async () => {
    const secret = await put(join(dirs.outside, 'private', 'plan.png'), 'png');
    await symlink(join(dirs.outside, 'private'), join(dirs.outside, 'alias'));
    for (const p of [secret, join(dirs.outside, 'alias', 'plan.png')]) {
      const res = await sendMedia(p, 'chat');
      expect(res.status, p).toBe(403);
      expect(res.body).toEqual({ error: READ_DENIED, code: 'media-denied' });
    }
    expect((await sendMedia(secret, 'owner')).status).toBe(200);
    expect((await sendMedia(await put(join(dirs.outside, 'readonly', 'r.png'), 'png'), 'chat')).status).toBe(200);
  });
});

describe('send-media takes only regular, non-empty files within the cap, and sends a private copy', () => {
  it('refuses a relative path, a missing file, a folder, a FIFO, an empty file, a hard-linked file and one over 25 MiB', async () => {
    expect((await sendMedia('chart.png')).body).toMatchObject({ code: 'media-path' });
    expect((await sendMedia(join(dirs.outside, 'nope.png'))).status).toBe(404);
    await mkdir(join(dirs.outside, 'folder'), { recursive: true });
    expect((await sendMedia(join(dirs.outside, 'folder'))).body).toMatchObject({ code: 'media-kind' });
    execFileSync('mkfifo', [join(dirs.outside, 'pipe')]);
    expect((await sendMedia(join(dirs.outside, 'pipe'))).body).toMatchObject({ code: 'media-kind' });
    expect((await sendMedia(await put(join(dirs.outside, 'empty.txt'), ''))).body).toMatchObject({ code: 'media-empty' });
    const a = await put(join(dirs.outside, 'twice-a.txt'));
    await link(a, join(dirs.outside, 'twice-b.txt'));
    expect((await sendMedia(a)).body).toMatchObject({ code: 'media-kind' });
    const big = await put(join(dirs.outside, 'big.bin'), 'x');
    await truncate(big, 25 * 1024 * 1024 + 1);
    const res = await sendMedia(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'media-too-large' });
    expect(fake.posts).toEqual([]);
  });

  it('copies an allowed file into <state>/media (folder 700, file 600) and posts the copy with the caption, labelled', async () => {
    const src = await put(join(dirs.outside, 'chart.png'), Buffer.alloc(1000, 3));
    const res = await sendMedia(src, 'chat', { caption: '[from owner] this week', file_name: 'week 23.png' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, name: 'week 23.png', size: 1000 });
    const [post] = fake.posts;
    expect(post?.post.label).toBe('from coder');
    expect(post?.post.text).toBe('> [from owner] this week');
    const copy = post!.post.files[0]!;
    expect(dirname(dirname(copy))).toBe(join(dirs.state, 'media'));
    expect(await readFile(copy)).toEqual(await readFile(src));
    expect((await stat(copy)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(copy))).mode & 0o777).toBe(0o700);
  });

  it('refuses a file swapped after the check (read through O_NOFOLLOW, identity checked again)', async () => {
    const p = await put(join(dirs.outside, 'swap.png'), 'first');
    const checked = await checkMedia(p, places, null);
    await put(join(dirs.outside, 'other.png'), 'second');
    await rename(join(dirs.outside, 'other.png'), p);
    await expect(readChecked(checked)).rejects.toMatchObject({ status: 409, code: 'media-changed' } satisfies Partial<ApiError>);
  });

  it('peers cannot send files into another chat', async () => {
    const res = await call(dirs.socket, 'POST', '/send-media', {
      token: t.tokenFor('research'),
      body: { key: 'coder', path: join(dirs.outside, 'chart.png') },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'files go only into your own chat' });
  });
});

describe('MEDIA lines of /send and files of /turn take the same checks', () => {
  it("/send: a MEDIA line attaches a checked copy; a credential in it refuses the whole message; a peer's stays text", async () => {
    const src = await put(join(dirs.outside, 'photo.jpg'), 'jpg');
    let res = await call(dirs.socket, 'POST', '/send', { token: t.tokenFor('coder'), body: { key: 'coder', text: `Here it is\nMEDIA: ${src}` } });
    expect(res.status, res.text).toBe(200);
    expect(fake.posts[0]?.post.text).toBe('Here it is');
    expect(fake.posts[0]?.post.files).toHaveLength(1);
    res = await call(dirs.socket, 'POST', '/send', { token: t.owner, body: { key: 'coder', text: `MEDIA:${await put(join(dirs.home, '.ssh', 'k.txt'))}` } });
    expect(res.status).toBe(403);
    expect(fake.posts).toHaveLength(1);
    res = await call(dirs.socket, 'POST', '/send', { token: t.tokenFor('research'), body: { key: 'coder', text: `MEDIA: ${src}` } });
    expect(res.status).toBe(200);
    expect(fake.posts[1]?.post).toEqual({ label: 'from research', text: `MEDIA: ${src}`, files: [] });
  });

  it("/turn: the owner's files go to .inbox through the core; a credential is refused; agents cannot attach", async () => {
    const src = await put(join(dirs.outside, 'report.pdf'), '%PDF');
    let res = await call(dirs.socket, 'POST', '/turn', {
      token: t.owner,
      body: { key: 'coder', text: 'Read this', files: [src, { path: src, name: 'second.pdf' }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(fake.attached).toEqual([
      { chatId: 'coder', name: 'report.pdf', size: 4 },
      { chatId: 'coder', name: 'second.pdf', size: 4 },
    ]);
    expect(fake.turns.at(-1)?.text).toBe('Read this\n[file: /home/me/code/.inbox/report.pdf]\n[file: /home/me/code/.inbox/second.pdf]');
    res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', files: [await put(join(dirs.home, '.kube', 'config.txt'))] } });
    expect(res.status).toBe(403);
    res = await call(dirs.socket, 'POST', '/turn', { token: t.tokenFor('coder'), body: { key: 'coder', text: 'x', files: [src] } });
    expect(res.status).toBe(403);
    expect(fake.attached).toHaveLength(2);
  });
});

describe('send-media takes the path exactly as given when it exists, and trims only a path that does not', () => {
  it('a file named "ok.txt." is sent as itself, not as "ok.txt"; "only.txt." (missing) is sent as "only.txt"', async () => {
    const dir = join(dirs.outside, 'trim');
    await put(join(dir, 'ok.txt'), 'the wrong file');
    await put(join(dir, 'ok.txt.'), 'the file named with a dot');
    await put(join(dir, 'only.txt'), 'only');
    const sent = async (path: string): Promise<string> => {
      const res = await sendMedia(path, 'chat');
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      return readFile(fake.posts.at(-1)!.post.files[0]!, 'utf8');
    };
    expect(await sent(join(dir, 'ok.txt.'))).toBe('the file named with a dot');
    expect(await sent(join(dir, 'ok.txt'))).toBe('the wrong file');
    expect(await sent(join(dir, 'only.txt.'))).toBe('only');
    expect(await sent(`"${join(dir, 'only.txt')}",`)).toBe('only');
    expect(await sent(`'${join(dir, 'ok.txt.')}'`)).toBe('the file named with a dot');
    // Through ~/ and a MEDIA line of /send alike.
    await put(join(dirs.home, 'notes', 'v1.'), 'home dot');
    expect(await sent('~/notes/v1.')).toBe('home dot');
    const res = await call(dirs.socket, 'POST', '/send', { token: t.tokenFor('coder'), body: { key: 'coder', text: `MEDIA: ${join(dir, 'ok.txt.')}` } });
    expect(res.status, res.text).toBe(200);
    expect(await readFile(fake.posts.at(-1)!.post.files[0]!, 'utf8')).toBe('the file named with a dot');
  });

  it('the location checks apply to the path taken either way', async () => {
    await put(join(dirs.home, '.ssh', 'config.'), 'x');
    for (const p of ['~/.ssh/config.', '~/.ssh/missing.']) {
      const res = await sendMedia(p, 'chat');
      expect(res.status, p).toBe(403);
      expect(res.body, p).toEqual({ error: LOCATION_REFUSED, code: 'media-refused' });
    }
  });
});
