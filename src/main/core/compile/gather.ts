/**
 * Gathers the CompileFacts of this machine and instance (the effectful half of compile: reads the
 * user's Codex config for MCP server names, lists user-wide skills and the state folder, and hands
 * compile a live existence check; writes nothing).
 */
import { lstatSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstancePaths } from '../instance/paths';
import type { CompileFacts } from './facts';
import { readUserMcpServers } from './userConfig';

/**
 * Skill folders installed user-wide, which Codex loads for every project: the entries of
 * `<codexHome>/skills` and `<home>/.agents/skills` (hidden names such as `.system` skipped), as
 * absolute paths, sorted. A missing folder means none.
 */
export async function readUserSkills(home: string, codexHome: string): Promise<string[]> {
  const out: string[] = [];
  for (const dir of [join(codexHome, 'skills'), join(home, '.agents', 'skills')]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) if (!name.startsWith('.')) out.push(join(dir, name));
  }
  return [...new Set(out)].sort();
}

/** Whether `path` exists now (lstat: a dangling symbolic link counts); false on any error. */
export function pathExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Facts for `paths` on this machine: home, state, workspace (and whether it exists), CODEX_HOME, the
 * API socket path (used only where Codex can allow one socket), `process.platform`, the user's MCP
 * server names and user-wide skills, the names in the state folder (none when it cannot be listed) and
 * a live `exists` check. Throws AppFailure `codex-config` when the user's Codex config exists but cannot
 * be read or parsed.
 */
export async function gatherFacts(paths: InstancePaths, platform: NodeJS.Platform = process.platform): Promise<CompileFacts> {
  return {
    home: paths.home,
    stateDir: paths.stateDir,
    workspace: paths.workspace,
    workspaceExists: await stat(paths.workspace).then((s) => s.isDirectory(), () => false),
    codexHome: paths.codexHome,
    apiSocket: paths.apiSock,
    platform,
    userMcpServers: await readUserMcpServers(paths.codexHome),
    userSkills: await readUserSkills(paths.home, paths.codexHome),
    stateEntries: (await readdir(paths.stateDir).catch(() => [] as string[])).sort(),
    codexHomeEntries: Object.fromEntries(await Promise.all([...new Set([join(paths.home, '.codex'), paths.codexHome])].map(
      async (dir) => [dir, (await readdir(dir).catch(() => [] as string[])).sort()] as const))),
    exists: pathExists,
  };
}
