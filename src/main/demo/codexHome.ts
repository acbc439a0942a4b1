/**
 * A `CODEX_HOME` that runs Codex offline against the scripted model, and fresh scratch folders for tests.
 *
 * The config is an offline Codex recipe (codex-cli 0.169.0, verified by
 * test/integration/scripted-turn.test.ts): a custom provider `mock` with `wire_api="responses"`, no auth,
 * no retries, no websockets. With a bundled model slug (default `gpt-5.5`) Codex offers `apply_patch` and
 * prints no "unknown model" warning.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { packageRoot } from '../core/instance/program';

/** Options of `writeOfflineCodexHome`. */
export interface OfflineCodexHomeOptions {
  /** The scripted model's `baseUrl` (`http://127.0.0.1:PORT/v1`); Codex POSTs `{modelBaseUrl}/responses`. */
  modelBaseUrl: string;
  /** Model slug; default `gpt-5.5` (bundled in 0.169.0, so `apply_patch` is offered). */
  model?: string;
  /**
   * More top-level config keys merged over the defaults (JSON form of config.toml, e.g.
   * `{features:{request_permissions_tool:true}}` or a `permissions` table with `default_permissions`).
   */
  extra?: Record<string, unknown>;
}

/** The config object `writeOfflineCodexHome` writes (before TOML encoding). */
export function offlineCodexConfig(opts: OfflineCodexHomeOptions): Record<string, unknown> {
  return {
    model: opts.model ?? 'gpt-5.5',
    model_provider: 'mock',
    check_for_update_on_startup: false,
    ...opts.extra,
    model_providers: {
      mock: {
        name: 'Mock Responses',
        base_url: opts.modelBaseUrl,
        wire_api: 'responses',
        requires_openai_auth: false,
        request_max_retries: 0,
        stream_max_retries: 0,
        supports_websockets: false,
      },
    },
  };
}

/**
 * Creates `dir` (mode 700) and writes `dir/config.toml` for offline Codex. Returns the config path.
 * Use a folder outside /tmp: Codex's `:workspace` sandbox lets agents write `/tmp` (`:slash_tmp`, `:tmpdir`).
 */
export async function writeOfflineCodexHome(dir: string, opts: OfflineCodexHomeOptions): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'config.toml');
  await writeFile(path, stringify(offlineCodexConfig(opts)), { mode: 0o600 });
  return path;
}

/**
 * A new empty folder `<repo>/.angelia-test/<prefix>-XXXXXX` (outside /tmp, git-ignored, mode 700).
 * The caller removes it (`rm(dir, {recursive:true, force:true})`).
 */
export async function freshDir(prefix: string): Promise<string> {
  const base = join(packageRoot(), '.angelia-test');
  await mkdir(base, { recursive: true, mode: 0o700 });
  return mkdtemp(join(base, `${prefix.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
}
