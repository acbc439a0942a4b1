/**
 * A cheaper thread start that tells the agent the same (docs/benchmarks.md "Cheaper starts"). At every
 * thread start and resume Codex looks for the project root: it walks up from the thread's cwd looking
 * for a marker (`project_root_markers`, default `.git`), then reads the instruction files (AGENTS.md, the
 * fallback names) of each folder from that root down to the cwd; with no root found it reads the cwd's
 * only. Under a permission profile with deny entries each of those looks is a sandboxed request (a
 * bubblewrap and a helper process apiece, codex 0.171.0 `fs.sandbox_request`): for a profile folder nine
 * levels deep, 84 of them and 5–6 s of a 7 s start on this machine, measured.
 *
 * Inside the sandbox a folder above the cwd holds only the components leading to a grant
 * (compile/codexProfile.ts "Grants only"), so a marker there is seen only when a grant reaches it. When
 * no marker is seen, the walk finds no root and Codex reads the cwd's files only; `project_root_markers
 * = []` gives exactly that without the walk. This module decides when that holds. Pure.
 */
import { dirname, join } from 'node:path';
import { configFlag, tomlValue } from './toml';
import type { Access } from './facts';
import { isWithin } from '../instance/paths';

/** Codex's default `project_root_markers` (codex 0.171.0 config docs). */
export const DEFAULT_ROOT_MARKERS: readonly string[] = ['.git'];

/**
 * The folders strictly above `cwd` (absolute, normalised), nearest first, up to `/`.
 */
export function foldersAbove(cwd: string): string[] {
  const out: string[] = [];
  let dir = dirname(cwd);
  for (;;) {
    out.push(dir);
    const up = dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

/**
 * Whether the sandbox lets Codex see a root marker in a folder above `cwd`: the marker exists
 * (`exists`) and a read or write entry of `filesystem` holds it or lies inside it (then the marker
 * folder exists in the sandbox as a path component). Glob entries count as reaching everything
 * (conservative). `markers`: the markers Codex looks for.
 */
export function rootMarkerVisible(
  cwd: string,
  filesystem: Readonly<Record<string, Access>>,
  exists: (path: string) => boolean,
  markers: readonly string[] = DEFAULT_ROOT_MARKERS,
): boolean {
  const grants = Object.entries(filesystem).filter(([, access]) => access !== 'deny');
  if (grants.some(([path]) => /[*?[]/.test(path))) return true;
  for (const dir of foldersAbove(cwd)) {
    for (const m of markers) {
      const marker = join(dir, m);
      if (!exists(marker)) continue;
      if (grants.some(([path]) => isWithin(marker, path) || isWithin(path, marker))) return true;
    }
  }
  return false;
}

/**
 * The `-c project_root_markers=[]` flag when it changes nothing the agent is told (see the module
 * comment): no marker is visible from the sandbox, and neither the user's Codex config
 * (`userSetsMarkers`: its config.toml names the key) nor the folder's own (`<cwd>/.codex/config.toml`)
 * may set other markers. [] (no flag) otherwise.
 */
export function projectRootFlag(
  cwd: string,
  filesystem: Readonly<Record<string, Access>>,
  exists: (path: string) => boolean,
  userSetsMarkers: boolean,
): string[] {
  if (userSetsMarkers || exists(join(cwd, '.codex', 'config.toml'))) return [];
  if (rootMarkerVisible(cwd, filesystem, exists)) return [];
  return configFlag('project_root_markers', tomlValue([]));
}
