/**
 * The full fixture instance on disk: `test/fixtures/instance-full/angelia.toml` (four profiles, every
 * capability kind) copied into `<root>/home/.angelia/workspace/`, with the folders it names, a user
 * Codex config holding one MCP server (`userdocs`) and one user-wide skill (`notes`), a toolchain in
 * `~/.cargo/bin`, and Codex and Angelia installed under `<root>/opt` (facts `codexReads`,
 * `angeliaReads`). Everything lives
 * under `<repo>/.angelia-test/` (never /tmp). `normalize` turns the random root into `<root>` so plans
 * can be compared with golden files.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompileFacts } from '../../../src/main/core/compile/facts';
import { gatherFacts } from '../../../src/main/core/compile/gather';
import { resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';
import { loadTable, type LoadedTable } from '../../../src/main/core/table/load';
import { makeTestDir, REPO_ROOT } from '../instance/testDir';

/** One built instance. */
export interface FullInstance {
  root: string;
  home: string;
  paths: InstancePaths;
  /** The environment the CLI runs with (HOME, ANGELIA_STATE_DIR, CODEX_HOME, PATH). */
  env: Record<string, string>;
  table: LoadedTable;
  facts: CompileFacts;
  profileDir(name: string): string;
  /** Replaces the root folder with `<root>` everywhere in `text`. */
  normalize(text: string): string;
}

/** The fixture table's path in the repository. */
export const FULL_TABLE = join(REPO_ROOT, 'test/fixtures/instance-full/angelia.toml');

/**
 * Builds the instance (fresh folder each call). Facts are gathered for Linux; `realRuntime` keeps the
 * facts' Codex and Angelia of this machine (for probes in a real sandbox, where commands start through
 * the real Codex binary) instead of the fixed ones under `<root>/opt` the golden files show.
 */
export async function makeFullInstance(label = 'full', opts: { realRuntime?: boolean } = {}): Promise<FullInstance> {
  const root = await makeTestDir(label);
  const home = join(root, 'home');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(home, '.codex') };
  const paths = resolveInstance(env);
  const ws = paths.workspace;
  for (const dir of [
    join(ws, '_shared'),
    join(ws, '_common'),
    join(ws, '_capabilities', 'skills', 'checkout'),
    join(ws, '_capabilities', 'skills', 'mfa'),
    ...['coder', 'writer', 'vault', 'planner'].map((p) => join(ws, 'profiles', p)),
    join(home, 'projects', 'site'),
    join(home, 'projects', 'lib'),
    join(home, 'vault'),
    join(home, 'secret'),
    join(home, '.ssh'),
    join(paths.codexHome, 'skills', 'notes'),
    paths.compiledDir,
    join(home, 'notes'),
    join(home, '.cargo', 'bin'),
    join(root, 'opt', 'codex', 'vendor', 'x86_64-unknown-linux-musl'),
    join(root, 'opt', 'angelia', 'out'),
  ])
    await mkdir(dir, { recursive: true });
  await writeFile(join(root, 'opt', 'angelia', 'package.json'), '{}\n');
  for (const skill of ['checkout', 'mfa'])
    await writeFile(join(ws, '_capabilities', 'skills', skill, 'SKILL.md'), `---\nname: ${skill}\ndescription: ${skill}\n---\n`);
  await writeFile(join(home, 'secret', 'mfa.key'), 'MFA');
  await writeFile(join(home, 'secret', 'github-token.json'), '{}');
  await writeFile(join(paths.codexHome, 'config.toml'), '[mcp_servers.userdocs]\ncommand = "docs-server"\n');
  await writeFile(join(ws, 'profiles', 'coder', 'CLAUDE.md'), '# Coder\n\nNotes the user keeps.\n');
  await copyFile(FULL_TABLE, paths.tableFile);
  const table = await loadTable(paths.tableFile, { home, env: {} });
  // Codex and Angelia as installed under <root>/opt, so the golden files hold no path of this machine.
  const gathered = await gatherFacts(paths, 'linux');
  const facts: CompileFacts = opts.realRuntime
    ? gathered
    : {
        ...gathered,
        codexReads: () => [join(root, 'opt', 'codex', 'vendor', 'x86_64-unknown-linux-musl')],
        angeliaReads: [join(root, 'opt', 'angelia', 'out'), join(root, 'opt', 'angelia', 'package.json')],
      };
  return {
    root,
    home,
    paths,
    env,
    table,
    facts,
    profileDir: (name) => join(ws, 'profiles', name),
    normalize: (text) => text.split(root).join('<root>'),
  };
}
