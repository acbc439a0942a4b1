import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng, iconSet, render } from '../../scripts/icons';
import { resolveCodexBin, unpackedAsarPath } from '../../src/main/core/codex/resolve';
import { trayIconFiles } from '../../src/main/electron/resources';

const root = join(__dirname, '..', '..');
const config = JSON.parse(readFileSync(join(root, 'electron-builder.json'), 'utf8')) as Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  extraResources: Array<{ from: string; to: string }>;
  mac: { target: Array<{ target: string }>; category: string; hardenedRuntime: boolean; extendInfo: Record<string, unknown>; icon: string };
  linux: { target: Array<{ target: string }>; category: string; icon: string };
};

/** Width, height and RGBA pixels of one of our PNGs (8-bit RGBA, filter 0, as scripts/icons.ts writes them). */
function readPng(file: string): { width: number; height: number; rgba: Buffer } {
  const buf = readFileSync(file);
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  expect([buf[24], buf[25]]).toEqual([8, 6]);
  const idat: Buffer[] = [];
  for (let off = 8; off < buf.length;) {
    const len = buf.readUInt32BE(off);
    if (buf.toString('ascii', off + 4, off + 8) === 'IDAT') idat.push(buf.subarray(off + 8, off + 8 + len));
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) raw.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  return { width, height, rgba };
}

describe('electron-builder.json', () => {
  it('builds a macOS dmg: a menu-bar app (LSUIElement), developer-tools category, hardened runtime off, our icon', () => {
    expect(config.mac.target.map((t) => t.target)).toEqual(['dmg']);
    expect(config.mac.extendInfo.LSUIElement).toBe(true);
    expect(config.mac.category).toBe('public.app-category.developer-tools');
    expect(config.mac.hardenedRuntime).toBe(false);
    expect(config.mac.icon).toBe('resources/icon.png');
  });

  it('builds a Linux AppImage in the Development category', () => {
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage']);
    expect(config.linux.category).toBe('Development');
  });

  it('packs out/** and keeps the codex binary (and its platform package) outside the asar, executable', () => {
    expect(config.files).toEqual(['out/**']);
    expect(config.asarUnpack).toContain('node_modules/@openai/codex/**');
    // The native binary lives in the platform package (@openai/codex-<platform>-<arch>/vendor/…).
    expect(config.asarUnpack).toContain('node_modules/@openai/codex-*/**');
    expect(config.extraResources).toEqual([expect.objectContaining({ from: 'resources', to: 'resources' })]);
  });

  it("passes electron-builder's own schema", async () => {
    const req = createRequire(join(root, 'node_modules', 'electron-builder', 'package.json'));
    const { validateConfiguration } = req('app-builder-lib/out/util/config/config.js') as { validateConfiguration(c: unknown, log: unknown): Promise<void> };
    const log = { isEnabled: false, add: () => undefined };
    await expect(validateConfiguration(config, log)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, mac: { ...config.mac, LSUIElement: true } }, log)).rejects.toThrow(/configuration/);
  });
});

describe('icons', () => {
  it('every file the tray uses exists, with its @2x at twice the size', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const files = trayIconFiles(platform, join(root, 'resources'));
      for (const f of [files.normal, files.attention, files.danger]) {
        const one = readPng(f);
        const two = readPng(f.replace(/\.png$/, '@2x.png'));
        expect(one.width).toBe(one.height);
        expect(two.width).toBe(one.width * 2);
      }
    }
    expect(readPng(join(root, 'resources', 'icon.png')).width).toBe(1024);
  });

  it('macOS template images are black with alpha only (macOS tints them), and not empty', () => {
    for (const name of ['trayTemplate.png', 'trayTemplate@2x.png', 'trayAttentionTemplate.png', 'trayAttentionTemplate@2x.png']) {
      const { rgba } = readPng(join(root, 'resources', name));
      let opaque = 0;
      for (let i = 0; i < rgba.length; i += 4) {
        if (rgba[i + 3] === 0) continue;
        opaque++;
        expect([rgba[i], rgba[i + 1], rgba[i + 2]]).toEqual([0, 0, 0]);
      }
      expect(opaque).toBeGreaterThan(rgba.length / 4 / 10);
    }
  });

  it('the committed tray icons are what scripts/icons.ts draws', () => {
    for (const { name, size, layers } of iconSet().filter((i) => i.size < 512)) {
      expect(encodePng(size, size, render(size, layers, 8)).equals(readFileSync(join(root, 'resources', name))), name).toBe(true);
    }
  });
});

describe('the codex binary of a packaged app', () => {
  it('maps the app.asar folder of a path to app.asar.unpacked, and nothing else', () => {
    const res = '/Applications/Angelia.app/Contents/Resources';
    expect(unpackedAsarPath(`${res}/app.asar/node_modules/@openai/codex-darwin-arm64/vendor/aarch64-apple-darwin/bin/codex`)).toBe(
      `${res}/app.asar.unpacked/node_modules/@openai/codex-darwin-arm64/vendor/aarch64-apple-darwin/bin/codex`,
    );
    expect(unpackedAsarPath(`${res}/app.asar`)).toBe(`${res}/app.asar.unpacked`);
    expect(unpackedAsarPath('C:\\Angelia\\resources\\app.asar\\node_modules\\x')).toBe('C:\\Angelia\\resources\\app.asar.unpacked\\node_modules\\x');
    for (const same of [
      `${res}/app.asar.unpacked/node_modules/x`,
      '/home/u/angelia/node_modules/@openai/codex/bin/codex',
      '/home/u/my-app.asar/x',
      '/home/u/app.asarx/y',
    ]) {
      expect(unpackedAsarPath(same)).toBe(same);
    }
  });

  it('resolves the package from inside app.asar but runs the binary electron-builder unpacked', () => {
    // The layout electron-builder makes (asarUnpack above): package.json files readable inside the
    // archive, the same files plus the native binary under app.asar.unpacked/.
    mkdirSync(join(root, '.angelia-test'), { recursive: true });
    const resources = mkdtempSync(join(root, '.angelia-test', 'asar-'));
    for (const base of ['app.asar', 'app.asar.unpacked']) {
      const modules = join(resources, base, 'node_modules', '@openai');
      mkdirSync(join(modules, 'codex', 'bin'), { recursive: true });
      writeFileSync(join(modules, 'codex', 'package.json'), JSON.stringify({ name: '@openai/codex', version: '0.169.0' }));
      writeFileSync(join(modules, 'codex', 'bin', 'codex.js'), '');
      mkdirSync(join(modules, 'codex-linux-x64'), { recursive: true });
      writeFileSync(join(modules, 'codex-linux-x64', 'package.json'), JSON.stringify({ name: '@openai/codex-linux-x64', version: '0.169.0' }));
    }
    const bin = join(resources, 'app.asar.unpacked', 'node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    mkdirSync(join(resources, 'app.asar', 'out', 'main'), { recursive: true });

    const r = resolveCodexBin(undefined, { resolveFrom: join(resources, 'app.asar', 'out', 'main'), platform: 'linux', arch: 'x64', env: { PATH: '' } });
    expect(r.path).toBe(join(bin, 'codex'));
    expect(r.source).toBe('package');
    expect(r.packageVersion).toBe('0.169.0');
    expect(r.env.CODEX_MANAGED_PACKAGE_ROOT).toBe(realpathSync(join(resources, 'app.asar.unpacked', 'node_modules', '@openai', 'codex')));
    rmSync(resources, { recursive: true, force: true });
  });
});
