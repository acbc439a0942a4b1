import { describe, expect, it } from 'vitest';
import { featuresOf, scrubEnv } from '../../../src/main/core/chats/launchPlan';

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
