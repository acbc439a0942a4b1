/**
 * The empty folders Codex's Linux sandbox makes in each writable root (compile/cache.ts
 * `ensureSandboxPlaceholders`): made before a launch so concurrent sandboxes in a shared root do not race
 * to create them; anything already at those names is left as it is.
 */
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureSandboxPlaceholders, SANDBOX_PLACEHOLDERS } from '../../../src/main/core/compile/cache';

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
    for (const name of SANDBOX_PLACEHOLDERS) expect(lstatSync(join(a, name)).isDirectory()).toBe(true);
    expect(lstatSync(join(b, '.agents')).isDirectory()).toBe(true);
    expect(lstatSync(join(b, '.git')).isFile()).toBe(true);
    expect(readlinkSync(join(b, '.codex'))).toBe(join(dir, 'target'));
    expect(() => lstatSync(join(dir, 'missing'))).toThrow();
    expect(() => lstatSync(join(dir, 'target'))).toThrow();
  });
});
