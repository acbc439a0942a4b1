/**
 * The composition root: the one place the core and the loopback API are built, from the edges a host
 * injects (the environment, how Codex is spawned, where messages go). The Electron main
 * (src/main/index.ts), `angelia serve`, `angelia demo` and `angelia run` all call `composeCore`; none
 * of them builds the orchestrator, the API adapter or the API server itself (docs/architecture.md,
 * "Composition root").
 *
 * `Orchestrator.create` assembles the core's own parts from these edges: the private files' move and
 * the orphans' reap, the accepted table and its watches, the audit log, the sessions store, the one
 * approval broker, the event hub and the profile service. `startApi` adds the loopback API over it
 * (api/orchestratorCore.ts adapts the orchestrator's named operations; api/server.ts mints the owner
 * token and serves the socket and the chats' mailboxes). The API's modules are loaded only when it
 * starts, so `angelia run` (one turn, no API) loads no more than before.
 */
import type { OrchestratorApiCore } from '../api/orchestratorCore';
import type { RunningApi } from '../api/server';
import { Orchestrator, type OrchestratorOptions } from '../core/chats/orchestrator';
import { resolveInstance, type InstancePaths } from '../core/instance/paths';
import type * as OrchestratorCoreModule from '../api/orchestratorCore';
import type * as ApiServerModule from '../api/server';

/** Where the composed core reports what no caller can show. */
export interface CoreLogger {
  /** An unexpected failure of an API request (it answered "internal error"). */
  error(e: unknown): void;
  /** A line worth telling: a mailbox entry refused, a watch that failed. */
  info(message: string): void;
}

/** What a host injects. */
export interface CoreEdges {
  /** The environment children inherit from (before scrubbing); names the instance (`ANGELIA_STATE_DIR` …). */
  env: NodeJS.ProcessEnv;
  /** How a Codex app-server is spawned (codex/start.ts `startCodexClient`; tests a fake). */
  startCodex: OrchestratorOptions['startCodex'];
  /** Where the API reports (`startApi`); default: nowhere (a 500 still answers "internal error"). */
  logger?: CoreLogger;
  /** The instance; default `resolveInstance(env)`. */
  paths?: InstancePaths;
  /** Follow edits of the table file and the accepted copy (default true; `angelia run` turns it off). */
  watchTable?: boolean;
  /**
   * The host will call `startApi`: the API's modules are loaded while the core is built instead of after
   * it (default false: `angelia run` never loads them).
   */
  api?: boolean;
}

/** The composed core. */
export interface ComposedCore {
  paths: InstancePaths;
  /** The core every host drives: its contract (`api()`) and named operations. */
  orchestrator: Orchestrator;
  /**
   * Starts the loopback API over the orchestrator: the owner token, `<state>/api.sock` and the chats'
   * mailboxes. Its `close` stops listening (the socket removed), then stops the adapter listening to
   * the core. Throws AppFailure when another Angelia answers on the socket.
   */
  startApi(): Promise<RunningApi>;
  /** Stops the table watches and every agent (their Codex processes stopped and reaped). */
  close(): Promise<void>;
}

/**
 * Builds the core from the edges. Throws AppFailure (nothing started) when the table or the sessions do
 * not load, or the state layout is ambiguous (`Orchestrator.create`).
 */
export async function composeCore(edges: CoreEdges): Promise<ComposedCore> {
  const paths = edges.paths ?? resolveInstance(edges.env);
  const loadApi = (): Promise<[typeof OrchestratorCoreModule, typeof ApiServerModule]> =>
    Promise.all([import('../api/orchestratorCore'), import('../api/server')]);
  const apiModules = edges.api ? loadApi() : null;
  // A failed build of the core leaves the preload unobserved; its own failure surfaces in startApi.
  apiModules?.catch(() => undefined);
  const orchestrator = await Orchestrator.create({
    paths,
    env: edges.env,
    startCodex: edges.startCodex,
    ...(edges.watchTable === false ? { watchTable: false } : {}),
  });
  return {
    paths,
    orchestrator,
    startApi: async () => {
      const [{ apiCoreFromOrchestrator }, { startApi }] = await (apiModules ?? loadApi());
      const adapter: OrchestratorApiCore = apiCoreFromOrchestrator(orchestrator, { paths, env: edges.env });
      let api: RunningApi;
      try {
        api = await startApi({
          core: adapter,
          socketPath: paths.apiSock,
          tokenFile: paths.apiToken,
          stateDir: paths.stateDir,
          home: paths.home,
          codexHome: paths.codexHome,
          env: edges.env,
          mailboxes: true,
          ...(edges.logger ? { onError: (e: unknown) => edges.logger?.error(e), report: (m: string) => edges.logger?.info(m) } : {}),
        });
      } catch (e) {
        adapter.close();
        throw e;
      }
      return {
        socketPath: api.socketPath,
        close: async () => {
          try {
            await api.close();
          } finally {
            adapter.close();
          }
        },
      };
    },
    close: () => orchestrator.shutdown(),
  };
}
