/**
 * `angelia serve [--port N]`: the headless host. The same core and the same renderer, served to a
 * browser on 127.0.0.1 with a random token, and the loopback API on `<state>/api.sock` with the chats'
 * mailboxes (api/server.ts); prints the URL (with the token) and runs until SIGINT/SIGTERM. The API is
 * closed before the agents are stopped. An `angelia accept` run in another terminal is followed while it
 * serves (the orchestrator watches the accepted copy: `Orchestrator.acceptedChanged`). The core and the
 * API are built by the composition root (app/compose.ts), as the Electron main builds them.
 *
 * The start is refused (exit 3, nothing started: no socket, no mailbox, no agent) when the UI is not
 * built (host/rendererDir.ts: the fix is "npm run build"), the table or the sessions do not load, or
 * another Angelia answers on the socket; a later step that fails (the port is taken) stops what started
 * and exits 3 too. From the first step on, SIGINT and SIGTERM shut serve down cleanly — the host, the
 * API (its socket removed), the agents (their Codex processes stopped and reaped) — also when one
 * arrives during the start; a second signal during the shutdown ends the process at once.
 */
import { parseArgs } from 'node:util';
import { toAppError } from '../../../shared/result';
import type { RunningApi } from '../../api/server';
import { composeCore, type ComposedCore } from '../../app/compose';
import { startCodexClient } from '../../core/codex/start';
import { rendererDir } from '../../host/rendererDir';
import { startHost, type RunningHost } from '../../host/server';
import type { CliCommand } from '../command';

/** A wait for SIGINT or SIGTERM: `signal` resolves with the first; `received` tells whether one came; `dispose` stops listening. */
export interface SignalWait {
  signal: Promise<NodeJS.Signals>;
  received(): NodeJS.Signals | null;
  dispose(): void;
}

/**
 * Starts listening for SIGINT and SIGTERM (the process no longer dies on the first one): `signal`
 * resolves with the first received. After it, the listeners are gone, so a second signal has its
 * default effect (the process ends).
 */
export function untilSignal(): SignalWait {
  let got: NodeJS.Signals | null = null;
  let resolveSignal: (s: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => (resolveSignal = resolve));
  const on = (s: NodeJS.Signals): void => {
    dispose();
    got = s;
    resolveSignal(s);
  };
  const onInt = (): void => on('SIGINT');
  const onTerm = (): void => on('SIGTERM');
  function dispose(): void {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return { signal, received: () => got, dispose };
}

/** Prints a refused start: `angelia: <message> (<where>) Fix: <fix>`. */
export function printRefusal(e: unknown, prefix = 'angelia'): void {
  const err = toAppError(e);
  process.stderr.write(`${prefix}: ${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}\n`);
}

/** Runs every step of a shutdown in order, each even when an earlier one failed (the failure is printed). */
export async function stopAll(steps: readonly (() => unknown)[]): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (e) {
      process.stderr.write(`angelia: while stopping: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
}

export const serve: CliCommand = {
  summary: 'serve the UI to a browser on 127.0.0.1 (headless host): serve [--port N]',
  exits: {
    0: 'stopped (Ctrl-C or TERM)',
    2: 'usage error',
    3: 'the start was refused, nothing started (the UI is not built, the table, the sessions, another Angelia answering on the socket, the port taken)',
  },
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } } });
    const port = values.port ? Number(values.port) : 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write('angelia serve: --port must be a port number (0 picks a free one)\n');
      return 2;
    }
    let ui: string;
    try {
      // First: serving the API and the agents without the UI it is for would be a half start.
      ui = rendererDir(process.env);
    } catch (e) {
      printRefusal(e);
      return 3;
    }
    const wait = untilSignal();
    const stops: (() => unknown)[] = [];
    const stop = (): Promise<void> => stopAll(stops.splice(0).reverse());
    try {
      let core: ComposedCore;
      try {
        core = await composeCore({
          env: process.env,
          startCodex: startCodexClient,
          api: true,
          logger: {
            error: (e) => void process.stderr.write(`angelia serve: API: ${e instanceof Error ? e.message : String(e)}\n`),
            info: (m) => void process.stderr.write(`angelia serve: ${m}\n`),
          },
        });
      } catch (e) {
        // As `angelia run` and `angelia export`: a start refused (the table, or a sessions.json that does not load) exits 3.
        printRefusal(e);
        return 3;
      }
      stops.push(() => core.close());
      let api: RunningApi;
      let host: RunningHost;
      try {
        api = await core.startApi();
        stops.push(() => api.close()); // the socket, then the API's adapter
        host = await startHost({ core: core.orchestrator.api(), rendererDir: ui, port });
        stops.push(() => host.close());
        // The chats used most recently start their agents now, within [defaults] warm_agents (docs/architecture.md "Warm agents").
        void core.orchestrator.warmer.atStart();
      } catch (e) {
        printRefusal(e);
        return 3;
      }
      if (wait.received() === null) {
        process.stdout.write(`Angelia is serving on ${host.url}\n(open that address in a browser on this machine; Ctrl-C stops)\nAPI on ${api.socketPath}\n`);
      }
      await wait.signal;
      return 0;
    } finally {
      // The host first, then the API (its socket removed), then the agents (Codex processes stopped and reaped).
      await stop();
      wait.dispose();
    }
  },
};
