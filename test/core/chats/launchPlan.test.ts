import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { assertCompileCurrent, featuresOf, scrubEnv } from '../../../src/main/core/chats/launchPlan';
import { guardPath } from '../../../src/main/core/compile/guardFile';

describe('launch plan helpers', () => {
  it('removes billing and endpoint variables and Angelia tokens from the child environment', () => {
    const env = scrubEnv({ PATH: '/bin', OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'https://x', CODEX_API_KEY: 'c', ANGELIA_API_TOKEN: 'owner' }, { npm_config_cache: '/c/npm' });
    expect(env).toEqual({ PATH: '/bin', RUST_LOG: 'warn', npm_config_cache: '/c/npm' });
  });

  it('lets the launch set its own token after scrubbing', () => {
    expect(scrubEnv({ ANGELIA_API_TOKEN: 'owner' }, { ANGELIA_API_TOKEN: 'chat' }).ANGELIA_API_TOKEN).toBe('chat');
  });

  it('reads the feature flags of a compiled argv', () => {
    expect(featuresOf(['-c', 'features.network_proxy=true', '-c', 'default_permissions="angelia"', '-c', 'features.x_y=false', 'app-server'])).toEqual({ network_proxy: true, x_y: false });
  });
});


describe('a table accepted but not compiled', () => {
  it('refuses a start that would lift a deny rule of the last compile, until compiled again', () => {
    const state = mkdtempSync(join(tmpdir(), 'angelia-guard-'));
    try {
      const file = guardPath(state, 'coder');
      mkdirSync(join(state, 'compiled'), { recursive: true });
      writeFileSync(file, JSON.stringify({ version: 1, profile: 'coder', cwd: '/w', backend: 'codex', deny: ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'mcp__old'], codexSandbox: true, compiledAt: '2026-11-30T00:00:00Z' }));
      expect(() => assertCompileCurrent(state, 'coder', ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'Read(/h/.aws/**)'])).not.toThrow();
      expect(() => assertCompileCurrent(state, 'coder', ['Read(/h/.aws/**)'])).toThrow(/lifts 2 deny rule\(s\) of the last compile \(Read\(\/h\/\.ssh\/\*\*\)/);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
