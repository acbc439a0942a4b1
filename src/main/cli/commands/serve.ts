/**
 * `angelia serve [--port N]`: the headless host. The same core and the same renderer, served to a
 * browser on 127.0.0.1 with a random token, and the loopback API on `<state>/api.sock` with the chats'
 * mailboxes (api/server.ts); prints the URL (with the token) and runs until SIGINT/SIGTERM. The API is
 * closed before the agents are stopped. Exit 3 when the start is refused (the table, the sessions, or
 * another Angelia answering on the socket). An `angelia accept` run in another terminal is followed
 * while it serves (the orchestrator watches the accepted copy: `Orchestrator.acceptedChanged`).
 */
import { parseArgs } from 'node:util';
import { toAppError } from '../../../shared/result';
import { apiCoreFromOrchestrator } from '../../api/orchestratorCore';
import { startApi, type RunningApi } from '../../api/server';
import { Orchestrator } from '../../core/chats/orchestrator';
import { startCodexClient } from '../../core/codex/start';
import { resolveInstance } from '../../core/instance/paths';
import { rendererDir } from '../../host/rendererDir';
import { startHost } from '../../host/server';
import type { CliCommand } from '../command';

/** Resolves when the process receives SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

function printRefusal(e: unknown): void {
  const err = toAppError(e);
  process.stderr.write(`angelia: ${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}\n`);
}

export const serve: CliCommand = {
  summary: 'serve the UI to a browser on 127.0.0.1 (headless host): serve [--port N]',
  exits: { 0: 'stopped (Ctrl-C or TERM)', 2: 'usage error', 3: 'the start was refused (the table, the sessions, or another Angelia answering on the socket)' },
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } } });
    const port = values.port ? Number(values.port) : 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write('angelia serve: --port must be a port number (0 picks a free one)\n');
      return 2;
    }
    const paths = resolveInstance(process.env);
    let orch: Orchestrator;
    try {
      orch = await Orchestrator.create({ paths, env: process.env, startCodex: startCodexClient });
    } catch (e) {
      // As `angelia run` and `angelia export`: a start refused (the table, or a sessions.json that does not load) exits 3.
      printRefusal(e);
      return 3;
    }
    const core = apiCoreFromOrchestrator(orch, { paths, env: process.env });
    let api: RunningApi;
    try {
      api = await startApi({
        core, socketPath: paths.apiSock, tokenFile: paths.apiToken, stateDir: paths.stateDir, home: paths.home, codexHome: paths.codexHome,
        env: process.env, mailboxes: true,
        onError: (e) => void process.stderr.write(`angelia serve: API: ${e instanceof Error ? e.message : String(e)}\n`),
        report: (m) => void process.stderr.write(`angelia serve: ${m}\n`),
      });
    } catch (e) {
      printRefusal(e);
      core.close();
      await orch.shutdown();
      return 3;
    }
    const host = await startHost({ core: orch.api(), rendererDir: rendererDir(), port });
    process.stdout.write(`Angelia is serving on ${host.url}\n(open that address in a browser on this machine; Ctrl-C stops)\nAPI on ${api.socketPath}\n`);
    await untilSignal();
    await host.close();
    await api.close();
    core.close();
    await orch.shutdown();
    return 0;
  },
};
