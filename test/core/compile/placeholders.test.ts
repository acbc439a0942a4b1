/**
 * The mount points Codex's Linux sandbox needs in each writable root (compile/cache.ts
 * `ensureSandboxPlaceholders`): made before a launch so concurrent sandboxes in a shared root do not race
 * to create them (`.codex` as an empty file, the others as empty folders); anything already at those
 * names is left as it is, an older Angelia's `.codex` folder and a link included.
 */
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureSandboxPlaceholders, SANDBOX_PLACEHOLDERS } from '../../../src/main/core/launch/prepare';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(process.cwd(), '.angelia-test', 'placeholders-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sandbox placeholders', () => {
  it('creates each missing one as an empty folder in every root, and leaves existing entries and missing roots alone', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(b, '.git'), 'gitdir: ../elsewhere\n');
    symlinkSync(join(dir, 'target'), join(b, '.codex'));
    await ensureSandboxPlaceholders([a, b, join(dir, 'missing')]);
    for (const name of SANDBOX_PLACEHOLDERS.filter((n) => n !== '.codex')) expect(lstatSync(join(a, name)).isDirectory()).toBe(true);
    // `.codex` is an empty read-only file: no project config folder Codex would trust or load.
    expect(lstatSync(join(a, '.codex')).isFile()).toBe(true);
    expect(lstatSync(join(a, '.codex')).size).toBe(0);
    expect(lstatSync(join(a, '.codex')).mode & 0o777).toBe(0o444);
    expect(lstatSync(join(b, '.agents')).isDirectory()).toBe(true);
    expect(lstatSync(join(b, '.git')).isFile()).toBe(true);
    expect(readlinkSync(join(b, '.codex'))).toBe(join(dir, 'target'));
    expect(() => lstatSync(join(dir, 'missing'))).toThrow();
    const old = join(dir, 'old');
    mkdirSync(join(old, '.codex'), { recursive: true });
    await ensureSandboxPlaceholders([old]);
    expect(lstatSync(join(old, '.codex')).isDirectory()).toBe(true);
    expect(() => lstatSync(join(dir, 'target'))).toThrow();
  });
});
