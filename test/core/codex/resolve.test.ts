import { chmodSync, mkdtempSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexTargetTriple, codexVersionFromUserAgent, resolveCodexBin } from '../../../src/main/core/codex/resolve';
import { codexEnv } from '../../../src/main/core/launch/env';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'angelia-resolve-'));
}

function executable(dir: string, name = 'codex'): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, '#!/bin/sh\necho fake\n');
  chmodSync(p, 0o755);
  return p;
}

describe('resolveCodexBin', () => {
  it('uses a profile bin, expanding ~ against HOME', () => {
    const home = scratch();
    const exe = executable(join(home, 'bin'));
    const r = resolveCodexBin('~/bin/codex', { env: { HOME: home } });
    expect(r).toEqual({ path: exe, source: 'profile', env: {}, unsetEnv: [], packageVersion: null });
  });

  it('rejects a profile bin that does not exist, naming the file and the fix', () => {
    const home = scratch();
    expect(() => resolveCodexBin('~/nope/codex', { env: { HOME: home } })).toThrow(new RegExp(`${join(home, 'nope', 'codex')}.*does not exist.*\`bin\``));
  });

  it('rejects a profile bin that is not executable, suggesting chmod', () => {
    const dir = scratch();
    const p = join(dir, 'codex');
    writeFileSync(p, 'not a program');
    expect(() => resolveCodexBin(p, { env: {} })).toThrow(/is not an executable file\. Run `chmod \+x/);
    expect(() => resolveCodexBin(dir, { env: {} })).toThrow(/is not an executable file/);
  });

  it('finds the pinned package native binary and the environment codex.js gives it', () => {
    const r = resolveCodexBin(undefined, { env: { PATH: '' } });
    expect(r.source).toBe('package');
    expect(r.packageVersion).toBe('0.171.0');
    const triple = codexTargetTriple(process.platform, process.arch);
    expect(r.path.endsWith(join('vendor', triple ?? '?', 'bin', 'codex'))).toBe(true);
    expect(r.env).toEqual({ CODEX_MANAGED_PACKAGE_ROOT: realpathSync(join(process.cwd(), 'node_modules', '@openai', 'codex')), CODEX_MANAGED_BY_NPM: '1' });
    const env = codexEnv({ KEEP: 'x', CODEX_MANAGED_BY_PNPM: '1' }, r);
    expect(env).toEqual({ KEEP: 'x', ...r.env });
  });

  it('falls back to `codex` on PATH when the package cannot be resolved', () => {
    const outside = scratch();
    const dirA = join(scratch(), 'empty');
    mkdirSync(dirA);
    const exe = executable(join(scratch(), 'bin'));
    const r = resolveCodexBin(undefined, { resolveFrom: outside, env: { PATH: [dirA, join(exe, '..')].join(':') } });
    expect(r).toMatchObject({ path: exe, source: 'path' });
  });

  it('fails with an install hint when nothing is found', () => {
    expect(() => resolveCodexBin(undefined, { resolveFrom: scratch(), env: { PATH: scratch() } })).toThrow(/no codex executable found.*npm install/);
  });

  it('maps platforms to the target triples of codex.js', () => {
    expect(codexTargetTriple('linux', 'x64')).toBe('x86_64-unknown-linux-musl');
    expect(codexTargetTriple('darwin', 'arm64')).toBe('aarch64-apple-darwin');
    expect(codexTargetTriple('win32', 'x64')).toBe('x86_64-pc-windows-msvc');
    expect(codexTargetTriple('linux', 'ia32')).toBeNull();
  });
});

describe('codexVersionFromUserAgent', () => {
  it('takes the first /X.Y.Z', () => {
    expect(codexVersionFromUserAgent('angelia/0.169.0 (Debian 12.0.0; x86_64) xterm (angelia; 0.1.0)')).toBe('0.169.0');
    expect(codexVersionFromUserAgent('codex_cli_rs/0.170.0-alpha.2 (Mac OS 15.1.0; arm64)')).toBe('0.170.0-alpha.2');
  });

  it('returns null without a version', () => {
    expect(codexVersionFromUserAgent('angelia (Debian 12.0.0; x86_64)')).toBeNull();
    expect(codexVersionFromUserAgent('')).toBeNull();
  });
});
