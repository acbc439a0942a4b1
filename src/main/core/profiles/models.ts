/**
 * The models Codex offers a profile and the config it runs with (contract `models:list`, the editor's
 * model and effort pickers): `model/list` and `config/read` on a short-lived `codex app-server` started
 * from the profile's own launch plan (launch/plan.ts `planLaunch`: the same executable, flags,
 * folder and scrubbed environment a chat would use). `model/list` goes through the orchestrator's
 * ModelCatalog (cached 10 minutes per Codex executable, shared with `/model`); `config/read` is asked
 * every time (the user may edit their config.toml), so the app-server is started once per call and always
 * stopped before returning.
 * Protocol facts: codex/models.ts (codex 0.169.0 answers `model/list` offline from its bundled catalog);
 * `config/read {cwd}` (generated v2 `ConfigReadResponse`) answers `{config, origins, layers}`, where
 * `config.model` / `config.model_reasoning_effort` are what Codex uses when the thread does not set them
 * (an untrusted project's `.codex/config.toml` is not applied, measured on 0.169.0) and
 * `origins["model"].name` is the `ConfigLayerSource` that set it (`{type:"user", file, profile}`,
 * `{type:"project", dotCodexFolder}`, `{type:"system", file}`, `{type:"sessionFlags"}`, …).
 */
import type { ModelsView } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { CodexConnection, CodexExit, CodexSpawnSpec } from '../codex/connection';
import { planLaunch, type PlanInput } from '../launch/plan';
import type { ModelCatalog } from '../codex/models';
import { configInForce } from '../codex/answers';
import type { ClientRequestMethod, RequestParams, ResponseOf } from '../codex/protocol';
import { EFFORTS } from '../table/schema';

/** A connection that starts its app-server on the first request (`model/list` when the catalog has nothing fresh, else `config/read`). */
class LazyConnection implements CodexConnection {
  private started: Promise<CodexConnection> | null = null;
  private conn: CodexConnection | null = null;
  /** Why the app-server could not start, once it was tried. */
  failure: unknown = null;

  constructor(private readonly start: () => Promise<CodexConnection>) {}

  get version(): string | null {
    return this.conn?.version ?? null;
  }

  get exited(): Promise<CodexExit> {
    return this.conn?.exited ?? new Promise<CodexExit>(() => undefined);
  }

  async request<M extends ClientRequestMethod>(method: M, params: RequestParams<M>, opts?: { timeoutMs?: number }): Promise<ResponseOf<M>> {
    this.started ??= this.start().then(
      (c) => (this.conn = c),
      (e: unknown) => {
        this.failure = e;
        throw e;
      },
    );
    return (await this.started).request(method, params, opts);
  }

  onServerRequest(): void {}

  onEvent(): void {}

  async stop(): Promise<void> {
    const c = this.started ? await this.started.catch(() => null) : null;
    await c?.stop();
  }

  kill(): void {
    this.conn?.kill();
  }
}

/** What `listModels` needs: the launch plan's inputs, the way to start Codex, and the shared catalog. */
export interface ModelsInput extends PlanInput {
  start: (spec: CodexSpawnSpec) => Promise<CodexConnection>;
  catalog: ModelCatalog;
}

/** How long `config/read` may take (ms). */
const CONFIG_TIMEOUT_MS = 15_000;

/**
 * The visible models for `input.profile`, in Codex's order; Codex's own `model` and
 * `model_reasoning_effort` for the profile's folder (`config/read`; a failure is named in
 * `codexConfig.error`, never thrown); and the efforts the table accepts (table/schema.ts EFFORTS).
 * Throws AppFailure `refused` (the profile cannot start: not compiled, executable missing … with the
 * fix), or `models-unavailable` when the app-server could not start (its error in the message). An
 * app-server that starts but lists nothing gives no models (not cached).
 */
export async function listModels(input: ModelsInput): Promise<ModelsView> {
  const plan = await planLaunch(input);
  const lazy = new LazyConnection(() => input.start(plan.spawn));
  try {
    const models = await input.catalog.list(plan.spawn.bin, lazy);
    if (models.length === 0 && lazy.failure !== null) {
      const app = toAppError(lazy.failure);
      throw new AppFailure({
        code: 'models-unavailable',
        message: `Codex could not be started to list its models: ${app.message}`,
        where: app.where ?? plan.spawn.bin,
        fix: app.fix ?? 'run angelia check-config',
      });
    }
    let codexConfig: ModelsView['codexConfig'];
    try {
      const answer = await lazy.request('config/read', { cwd: plan.spawn.cwd, includeLayers: false }, { timeoutMs: CONFIG_TIMEOUT_MS });
      codexConfig = { ...configInForce(answer), error: null };
    } catch (e) {
      codexConfig = { model: null, effort: null, error: `Codex's config could not be read: ${toAppError(e).message}` };
    }
    return {
      models: models.map((m) => ({ id: m.id, name: m.name, efforts: [...m.efforts], defaultEffort: m.defaultEffort, isDefault: m.isDefault })),
      codexConfig,
      tableEfforts: [...EFFORTS],
    };
  } finally {
    await lazy.stop();
  }
}
