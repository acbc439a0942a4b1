/**
 * The models Codex offers a profile (contract `models:list`, the editor's model picker): `model/list` on
 * a short-lived `codex app-server` started from the profile's own launch plan (chats/launchPlan.ts
 * `planLaunch`: the same executable, flags and scrubbed environment a chat would use), through the
 * orchestrator's ModelCatalog (cached 10 minutes per Codex executable, shared with `/model`). The
 * app-server is started only when the catalog has nothing fresh, and always stopped before returning.
 * Protocol facts: codex/models.ts (codex 0.169.0 answers `model/list` offline from its bundled catalog).
 */
import type { z } from 'zod';
import type { ModelView } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { CodexConnection, CodexExit, CodexSpawnSpec } from '../chats/connection';
import { planLaunch, type PlanInput } from '../chats/launchPlan';
import type { ModelCatalog } from '../codex/models';

/** A connection that starts its app-server on the first request (never, when the catalog answers from cache). */
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

  async request(method: string, params: unknown, opts?: { timeoutMs?: number }): Promise<unknown> {
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

  onNotification(): void {}

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

/**
 * The visible models for `input.profile`, in Codex's order. Throws AppFailure `refused` (the profile
 * cannot start: not compiled, executable missing … with the fix), or `models-unavailable` when the
 * app-server could not start (its error in the message). An app-server that starts but lists nothing
 * gives [] (not cached).
 */
export async function listModels(input: ModelsInput): Promise<Array<z.infer<typeof ModelView>>> {
  const plan = await planLaunch(input);
  const lazy = new LazyConnection(() => input.start(plan.spawn));
  try {
    const models = await input.catalog.list(plan.spawn.bin, lazy);
    if (models.length === 0 && lazy.failure !== null) {
      const app = toAppError(lazy.failure);
      throw new AppFailure({ code: 'models-unavailable', message: `Codex could not be started to list its models: ${app.message}`, where: app.where ?? plan.spawn.bin, fix: app.fix ?? 'run angelia check-config' });
    }
    return models.map((m) => ({ id: m.id, name: m.name, efforts: [...m.efforts], defaultEffort: m.defaultEffort, isDefault: m.isDefault }));
  } finally {
    await lazy.stop();
  }
}
