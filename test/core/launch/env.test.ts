/** launch/env.ts `childEnv`: the one environment of a Codex child, from its pieces. */
import { describe, expect, it } from 'vitest';
import { childEnv, STRIPPED_ENV } from '../../../src/main/core/launch/env';

const NO_MCP = { all: [], given: [] };
const NO_CODEX = { env: {}, unsetEnv: [] };

describe('childEnv', () => {
  const cases: Array<[string, NodeJS.ProcessEnv, Parameters<typeof childEnv>[1], NodeJS.ProcessEnv]> = [
    [
      'keeps plain variables, defaults RUST_LOG',
      { PATH: '/bin', HOME: '/h' },
      { mcp: NO_MCP, add: {}, codex: NO_CODEX },
      { PATH: '/bin', HOME: '/h', RUST_LOG: 'warn' },
    ],
    ['drops every STRIPPED_ENV name', Object.fromEntries(STRIPPED_ENV.map((k) => [k, 'x'])), { mcp: NO_MCP, add: {}, codex: NO_CODEX }, { RUST_LOG: 'warn' }],
    [
      'the launch sets its own channel variables after stripping',
      { ANGELIA_API_TOKEN: 'owner' },
      { mcp: NO_MCP, add: { ANGELIA_API_TOKEN: 'chat' }, codex: NO_CODEX },
      { ANGELIA_API_TOKEN: 'chat', RUST_LOG: 'warn' },
    ],
    [
      'drops MCP secrets the profile is not given, keeps its own',
      { GH_TOKEN: 'g', DB_PASS: 'd' },
      { mcp: { all: ['DB_PASS', 'GH_TOKEN'], given: ['GH_TOKEN'] }, add: {}, codex: NO_CODEX },
      { GH_TOKEN: 'g', RUST_LOG: 'warn' },
    ],
    [
      "applies the executable's own changes last",
      { CODEX_MANAGED_BY_PNPM: '1', RUST_LOG: 'info' },
      { mcp: NO_MCP, add: {}, codex: { env: { CODEX_MANAGED_BY_NPM: '1' }, unsetEnv: ['CODEX_MANAGED_BY_PNPM'] } },
      { RUST_LOG: 'info', CODEX_MANAGED_BY_NPM: '1' },
    ],
  ];
  it.each(cases)('%s', (_name, parent, opts, want) => {
    expect(childEnv(parent, opts)).toEqual(want);
  });
});
