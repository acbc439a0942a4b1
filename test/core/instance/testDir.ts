/**
 * Test folders for tests that touch the disk: under `<repo>/.angelia-test/` (git-ignored), never under
 * /tmp, because /tmp is writable inside Codex's `:workspace` sandbox and would blur sandbox probes.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (absolute, no trailing slash). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/** Creates a fresh folder `<repo>/.angelia-test/<label>-XXXXXX` and returns its path. */
export async function makeTestDir(label: string): Promise<string> {
  const base = join(REPO_ROOT, '.angelia-test');
  await mkdir(base, { recursive: true });
  return mkdtemp(join(base, `${label}-`));
}

/** Removes a folder made by makeTestDir (and everything in it). */
export async function removeTestDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
