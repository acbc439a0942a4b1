/**
 * `npm run gen:protocol`: regenerates `src/main/core/codex/generated/` from the pinned Codex with
 * `codex app-server generate-ts --experimental --out <dir>` (codex 0.171.0; without `--experimental` the
 * types lack experimental fields such as `activePermissionProfile` and thread/start `permissions`). The output is
 * committed; `test/core/codex/generated.test.ts` regenerates it and fails on any difference.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { resolveCodexBin } from '../src/main/core/codex/resolve';
import { codexEnv } from '../src/main/core/launch/env';

const run = promisify(execFile);

/** The repository root (the folder holding package.json). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the committed generated types live. */
export const generatedDir = join(repoRoot, 'src', 'main', 'core', 'codex', 'generated');

/**
 * Runs the pinned codex's `app-server generate-ts --experimental` into `outDir` (created if missing;
 * existing files are not removed). Uses a fresh, empty CODEX_HOME under `~/.cache/angelia` (removed
 * afterwards) so no user config can change the output. Throws with Codex's stderr when it fails.
 */
export async function generateProtocolTypes(outDir: string): Promise<void> {
  const codex = resolveCodexBin();
  const cacheDir = join(homedir(), '.cache', 'angelia');
  await mkdir(cacheDir, { recursive: true });
  const codexHome = await mkdtemp(join(cacheDir, 'gen-codex-home-'));
  try {
    await mkdir(outDir, { recursive: true });
    const env = { ...codexEnv(process.env, codex), CODEX_HOME: codexHome, RUST_LOG: 'warn' };
    await run(codex.path, ['app-server', 'generate-ts', '--experimental', '--out', outDir], { env, maxBuffer: 16 * 1024 * 1024 }).catch(
      (e: Error & { stderr?: string }) => {
        throw new Error(`${codex.path} app-server generate-ts failed: ${e.stderr?.trim() || e.message}`);
      },
    );
  } finally {
    await rm(codexHome, { recursive: true, force: true });
  }
}

/** Every file below `dir`, as `/`-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/**
 * Compares two folders file by file. Returns the relative paths that differ: present on one side only, or
 * with different content. Empty when identical.
 */
export async function diffFolders(a: string, b: string): Promise<string[]> {
  const [fa, fb] = await Promise.all([listFiles(a), listFiles(b)]);
  const all = [...new Set([...fa, ...fb])].sort();
  const out: string[] = [];
  for (const f of all) {
    if (!fa.includes(f)) out.push(`${f} (only in ${b})`);
    else if (!fb.includes(f)) out.push(`${f} (only in ${a})`);
    else if (!(await readFile(join(a, f))).equals(await readFile(join(b, f)))) out.push(`${f} (content differs)`);
  }
  return out;
}

/** Regenerates into a temporary folder, then replaces `generatedDir` with it. */
export async function main(): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), 'angelia-gen-'));
  try {
    await generateProtocolTypes(tmp);
    await rm(generatedDir, { recursive: true, force: true });
    await cp(tmp, generatedDir, { recursive: true });
    const files = await listFiles(generatedDir);
    process.stdout.write(`wrote ${files.length} files to ${relative(repoRoot, generatedDir)}\n`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`gen:protocol failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
