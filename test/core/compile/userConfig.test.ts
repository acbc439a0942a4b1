import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUserMcpServers } from '../../../src/main/core/compile/userConfig';
import { AppFailure } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
beforeAll(async () => {
  root = await makeTestDir('usercfg');
});
afterAll(async () => removeTestDir(root));

async function codexHome(name: string, config: string | null): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  if (config !== null) await writeFile(join(dir, 'config.toml'), config);
  return dir;
}

describe('readUserMcpServers', () => {
  it('a missing config (or CODEX_HOME) means no servers', async () => {
    expect(await readUserMcpServers(await codexHome('empty', null))).toEqual([]);
    expect(await readUserMcpServers(join(root, 'does-not-exist'))).toEqual([]);
  });

  it('finds servers in every TOML spelling', async () => {
    const dir = await codexHome(
      'spellings',
      [
        'model = "gpt-5.5"',
        'mcp_servers.inline = { command = "x" }',
        '[mcp_servers.bare]',
        'command = "a"',
        '[mcp_servers."quoted.name"]',
        'url = "http://x"',
        "[mcp_servers.'single']",
        'command = "b"',
        '[mcp_servers.off]',
        'command = "c"',
        'enabled = false',
      ].join('\n'),
    );
    expect(await readUserMcpServers(dir)).toEqual(['bare', 'inline', 'off', 'quoted.name', 'single']);
  });

  it('a config Codex could not read either is an error naming the file and line', async () => {
    const dir = await codexHome('broken', '[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a]\n');
    const e = await readUserMcpServers(dir).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppFailure);
    expect((e as AppFailure).app).toMatchObject({ code: 'codex-config', where: `${join(dir, 'config.toml')}:3` });
  });
});
