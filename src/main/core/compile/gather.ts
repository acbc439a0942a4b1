/**
 * Gathers the CompileFacts of this machine and instance (the effectful half of compile: reads the
 * user's Codex config for MCP server names, lists user-wide skills and the state folder, and hands
 * compile a live existence check; writes nothing).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { resolveCodexBin } from '../codex/resolve';
import type { InstancePaths } from '../instance/paths';
import { currentCliRuntime, type CliRuntime } from '../instance/program';
import type { CompileFacts } from './facts';
import { readUserMcpServers, readUserSetsRootMarkers } from './userConfig';

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

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * What commands must read of the Codex executable `bin` (a profile's `bin`, null for the bundled one;
 * CompileFacts `codexReads`), by real path: the package folder `…/vendor/<triple>` when the binary lies
 * in `…/vendor/<triple>/bin/` (the npm package layout of codex 0.169.0, codex/resolve.ts), else the
 * binary alone. [] when it cannot be found (the start then refuses on its own, launch/plan.ts).
 */
export function codexReadsOf(bin: string | null, env: NodeJS.ProcessEnv = process.env): string[] {
  let exe: string;
  try {
    exe = resolveCodexBin(bin ?? undefined, { env }).path;
  } catch {
    return [];
  }
  const file = real(exe);
  if (!file) return [];
  const binDir = dirname(file);
  return basename(binDir) === 'bin' && basename(dirname(dirname(binDir))) === 'vendor' ? [dirname(binDir)] : [file];
}

/**
 * What the in-sandbox `angelia` command must read (CompileFacts `angeliaReads`), by real path: the
 * Node executable, or the whole folder of the Electron app (its binary loads the files beside it), and
 * the built CLI's `out/` and `package.json` where they exist as real files. [] without a built CLI.
 */
export function angeliaReadsOf(rt: CliRuntime | null = currentCliRuntime()): string[] {
  if (!rt) return [];
  const exec = real(rt.exec);
  const out = dirname(dirname(rt.script));
  const wanted = [...(exec ? [rt.electron ? dirname(exec) : exec] : []), out, join(dirname(out), 'package.json')];
  return [...new Set(wanted.flatMap((p) => real(p) ?? []))];
}

/**
 * Facts for `paths` on this machine: home, state, workspace (and whether it exists), CODEX_HOME, the
 * API socket path (used only where Codex can allow one socket), `process.platform`, the user's MCP
 * server names and user-wide skills, the names in the state folder (none when it cannot be listed) and
 * what commands must read to run Codex and Angelia's CLI (`codexReads`, `angeliaReads`) and a live
 * `exists` check. Throws AppFailure `codex-config` when the user's Codex config exists but cannot
 * be read or parsed.
 */
export async function gatherFacts(paths: InstancePaths, platform: NodeJS.Platform = process.platform): Promise<CompileFacts> {
  return {
    home: paths.home,
    stateDir: paths.stateDir,
    workspace: paths.workspace,
    workspaceExists: await stat(paths.workspace).then(
      (s) => s.isDirectory(),
      () => false,
    ),
    codexHome: paths.codexHome,
    apiSocket: paths.apiSock,
    platform,
    userMcpServers: await readUserMcpServers(paths.codexHome),
    codexSetsRootMarkers: await readUserSetsRootMarkers(paths.codexHome),
    userSkills: await readUserSkills(paths.home, paths.codexHome),
    stateEntries: (await readdir(paths.stateDir).catch(() => [] as string[])).sort(),
    codexHomeEntries: Object.fromEntries(
      await Promise.all(
        [...new Set([join(paths.home, '.codex'), paths.codexHome])].map(async (dir) => [dir, (await readdir(dir).catch(() => [] as string[])).sort()] as const),
      ),
    ),
    codexReads: (bin) => codexReadsOf(bin),
    angeliaReads: angeliaReadsOf(),
    exists: pathExists,
  };
}
