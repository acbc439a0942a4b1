/**
 * Which `codex` executable to run, and the Codex version a server reports.
 *
 * Package layout facts are read from `node_modules/@openai/codex/bin/codex.js` of the pinned 0.171.0 (the same
 * as 0.169.0's but for how the shim forwards signals, which Angelia does not use): the JS shim maps
 * platform/arch to a target triple and an optional platform package
 * (`@openai/codex-linux-x64` → `vendor/x86_64-unknown-linux-musl/bin/codex`, falling back to the shim
 * package's own `vendor/`), then execs the native binary with two environment additions:
 * `CODEX_MANAGED_PACKAGE_ROOT=<realpath of the @openai/codex folder>` and `CODEX_MANAGED_BY_NPM=1`
 * (the other `CODEX_MANAGED_BY_*` variables removed). In 0.169.0 and 0.171.0 the shim does NOT add the
 * platform package's `codex-path/` folder (rg) to PATH: the native binary finds `codex-path/rg` and
 * `codex-resources/bwrap` next to itself. Running the native binary directly (not the npm shim) means
 * signals reach Codex itself (reap.ts).
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandPath } from '../instance/paths';

/** Where the executable came from: a profile's `bin`, the pinned npm package, or `codex` on PATH. */
export type CodexBinSource = 'profile' | 'package' | 'path';

/**
 * A resolved Codex executable. `env` holds variables to add and `unsetEnv` variables to remove before
 * spawning it (apply both with launch/env.ts `codexEnv`); `packageVersion` is the npm package's version ("0.169.0"),
 * null when not from the package.
 */
export interface ResolvedCodex {
  path: string;
  source: CodexBinSource;
  env: Record<string, string>;
  unsetEnv: string[];
  packageVersion: string | null;
}

/** Inputs of `resolveCodexBin` besides the profile's `bin` (defaults: this process). */
export interface ResolveCodexOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Folder to resolve `@openai/codex` from (default: this module's folder). */
  resolveFrom?: string;
}

/** Target triple → platform package, copied from codex.js of @openai/codex 0.169.0. */
const PLATFORM_PACKAGE_BY_TARGET: Record<string, string> = {
  'x86_64-unknown-linux-musl': '@openai/codex-linux-x64',
  'aarch64-unknown-linux-musl': '@openai/codex-linux-arm64',
  'x86_64-apple-darwin': '@openai/codex-darwin-x64',
  'aarch64-apple-darwin': '@openai/codex-darwin-arm64',
  'x86_64-pc-windows-msvc': '@openai/codex-win32-x64',
  'aarch64-pc-windows-msvc': '@openai/codex-win32-arm64',
};

/** The target triple codex.js picks for a platform/arch pair, or null when it has none. */
export function codexTargetTriple(platform: NodeJS.Platform, arch: string): string | null {
  const os =
    platform === 'linux' || platform === 'android'
      ? 'unknown-linux-musl'
      : platform === 'darwin'
        ? 'apple-darwin'
        : platform === 'win32'
          ? 'pc-windows-msvc'
          : null;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : null;
  return os && cpu ? `${cpu}-${os}` : null;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fromProfile(bin: string, env: NodeJS.ProcessEnv): ResolvedCodex {
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : homedir();
  const path = expandPath(bin, home);
  if (!existsSync(path)) {
    throw new Error(
      `profile bin ${path} (from "${bin}") does not exist. Fix the profile's \`bin\` to point at a codex executable, or remove it to use the bundled @openai/codex.`,
    );
  }
  if (!isExecutableFile(path)) {
    throw new Error(`profile bin ${path} (from "${bin}") is not an executable file. Run \`chmod +x ${path}\` or fix the profile's \`bin\`.`);
  }
  return { path, source: 'profile', env: {}, unsetEnv: [], packageVersion: null };
}

/**
 * `path` with its `app.asar` folder replaced by `app.asar.unpacked`: in a packaged Electron app the
 * codex package lies inside the read-only archive `…/resources/app.asar/`, where Electron's patched `fs`
 * can read it but nothing can execute it; electron-builder extracts it (electron-builder.json
 * `asarUnpack`: the @openai/codex package and its platform package) to the sibling
 * folder `…/resources/app.asar.unpacked/` at the same relative path. Only a whole path segment named
 * `app.asar` is mapped (the first one); any other path, `app.asar.unpacked/…` included, comes back as is.
 */
export function unpackedAsarPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

function fromPackage(opts: ResolveCodexOptions): ResolvedCodex | null {
  const req = createRequire(join(opts.resolveFrom ?? dirname(fileURLToPath(import.meta.url)), 'noop.js'));
  let pkgJson: string;
  try {
    pkgJson = req.resolve('@openai/codex/package.json');
  } catch {
    return null;
  }
  const triple = codexTargetTriple(opts.platform ?? process.platform, opts.arch ?? process.arch);
  const platformPackage = triple ? PLATFORM_PACKAGE_BY_TARGET[triple] : undefined;
  if (!triple || !platformPackage) return null;
  const pkgRoot = dirname(pkgJson);
  const candidates: string[] = [];
  try {
    // codex.js resolves the platform package from its own location.
    const platformJson = createRequire(join(pkgRoot, 'bin', 'codex.js')).resolve(`${platformPackage}/package.json`);
    candidates.push(join(dirname(platformJson), 'vendor'));
  } catch {
    // Not installed as an optional dependency; codex.js then looks in its own vendor folder.
  }
  candidates.push(join(pkgRoot, 'vendor'));
  const exe = (opts.platform ?? process.platform) === 'win32' ? 'codex.exe' : 'codex';
  for (const vendor of candidates) {
    // Packaged app: the binary is executed from app.asar.unpacked/, never from inside the archive.
    const path = unpackedAsarPath(join(vendor, triple, 'bin', exe));
    if (!isExecutableFile(path)) continue;
    const version = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version?: unknown }).version;
    const unpackedRoot = unpackedAsarPath(pkgRoot);
    return {
      path,
      source: 'package',
      env: { CODEX_MANAGED_PACKAGE_ROOT: realpathSync(existsSync(unpackedRoot) ? unpackedRoot : pkgRoot), CODEX_MANAGED_BY_NPM: '1' },
      unsetEnv: ['CODEX_MANAGED_BY_BUN', 'CODEX_MANAGED_BY_PNPM', 'CODEX_MANAGED_BY_VITE_PLUS'],
      packageVersion: typeof version === 'string' ? version : null,
    };
  }
  return null;
}

function fromPath(env: NodeJS.ProcessEnv): ResolvedCodex | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir.length === 0) continue;
    const path = join(dir, 'codex');
    if (isExecutableFile(path)) return { path, source: 'path', env: {}, unsetEnv: [], packageVersion: null };
  }
  return null;
}

/**
 * Picks the Codex executable: the profile's `bin` when given (`~` expanded; it must be an existing
 * executable file, else an Error naming the file and the fix); otherwise the native binary of the pinned
 * `@openai/codex` package for this platform; otherwise `codex` on `PATH`. Throws an Error saying how to
 * install Codex when none is found.
 */
export function resolveCodexBin(profileBin?: string, opts: ResolveCodexOptions = {}): ResolvedCodex {
  const env = opts.env ?? process.env;
  if (profileBin !== undefined && profileBin.trim().length > 0) return fromProfile(profileBin, env);
  const found = fromPackage(opts) ?? fromPath(env);
  if (found) return found;
  throw new Error(
    `no codex executable found: the @openai/codex package (with its platform package for ${opts.platform ?? process.platform}-${opts.arch ?? process.arch}) is not installed and \`codex\` is not on PATH. Run \`npm install\` in the Angelia folder, install Codex (\`npm install -g @openai/codex\`), or set \`bin\` in the profile.`,
  );
}

/**
 * Codex's version from the `initialize` result's `userAgent`, e.g.
 * `"angelia/0.169.0 (Debian 12.0.0; x86_64) xterm (angelia; 0.1.0)"` → `"0.169.0"` (codex 0.169.0
 * puts `<originator>/<version>` first in `initialize`'s `userAgent`). The first `/X.Y.Z` wins; a pre-release
 * suffix (`-alpha.1`) is kept. Null when there is none.
 */
export function codexVersionFromUserAgent(userAgent: string): string | null {
  const m = /\/(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/.exec(userAgent);
  return m?.[1] ?? null;
}
