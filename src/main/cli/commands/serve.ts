/**
 * `angelia serve [--port N]`: the headless host. The same core and the same renderer, served to a
 * browser on 127.0.0.1 with a random token; prints the URL (with the token) and runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { toAppError } from '../../../shared/result';
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

export const serve: CliCommand = {
  summary: 'serve the UI to a browser on 127.0.0.1 (headless host): serve [--port N]',
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } } });
    const port = values.port ? Number(values.port) : 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write('angelia serve: --port must be a port number (0 picks a free one)\n');
      return 2;
    }
    let orch: Orchestrator;
    try {
      orch = await Orchestrator.create({ paths: resolveInstance(process.env), env: process.env, startCodex: startCodexClient });
    } catch (e) {
      // As `angelia run` and `angelia export`: a start refused (the table, or a sessions.json that does not load) exits 3.
      const err = toAppError(e);
      process.stderr.write(`angelia: ${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}\n`);
      return 3;
    }
    const host = await startHost({ core: orch.api(), rendererDir: rendererDir(), port });
    process.stdout.write(`Angelia is serving on ${host.url}\n(open that address in a browser on this machine; Ctrl-C stops)\n`);
    await untilSignal();
    await host.close();
    await orch.shutdown();
    return 0;
  },
};
