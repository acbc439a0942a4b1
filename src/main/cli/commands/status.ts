/**
 * `angelia status [--json]`: the instance's paths and, when Angelia runs, its version, the Codex version
 * last seen, every chat's state and each Codex home's latest rate limits (`usage`: src/shared/usage.ts
 * `HomeUsage`) (`GET /status`, owner token). When nothing answers on the socket it
 * says so (`--json`: `{"running": false, "stateDir", "socket"}`) and exits 3.
 * Exit: 0 running · 1 refused · 2 usage · 3 not running.
 */
import { parseArgs } from 'node:util';
import { EXIT, processIo, type CliIo } from '../../api/cli';
import { ApiClientError, callApi, locateApi } from '../../api/client';
import { resolveInstance } from '../../core/instance/paths';
import { shortId } from '../../core/chats/sessions';
import type { CliCommand } from '../command';
import type { HomeUsage } from '../../../shared/usage';
import { homeUsageLine } from '../../core/usage/statusText';
import { terminalLine } from '../terminalText';

interface StatusAnswer {
  version: string;
  stateDir: string;
  socket: string;
  codexVersion: string | null;
  pendingApprovals: number;
  chats: { chat: string; profile: string; state: string; session: string | null; queued: number; pendingApprovals: number; reason?: string | null }[];
  /** Each Codex home's latest rate limits and pause (absent from an Angelia older than usage). */
  usage?: HomeUsage[];
}

/** Runs `status` with `argv` on `io`; answers the exit code. */
export async function runStatus(argv: string[], io: CliIo): Promise<number> {
  let values: { json?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, allowPositionals: false, options: { json: { type: 'boolean' } } }));
  } catch (e) {
    io.stderr(`angelia status: ${(e as Error).message}\nusage: angelia status [--json]\n`);
    return EXIT.usage;
  }
  const paths = resolveInstance(io.env);
  let out: StatusAnswer;
  try {
    const ep = locateApi(io.env);
    out = await callApi<StatusAnswer>(ep, 'GET', '/status');
  } catch (e) {
    if (!(e instanceof ApiClientError)) throw e;
    if (e.code !== 'not-running' && e.code !== 'no-token') {
      io.stderr(`angelia status: ${e.message}\n`);
      return EXIT.refused;
    }
    if (values.json) io.stdout(`${JSON.stringify({ running: false, stateDir: paths.stateDir, socket: paths.apiSock, reason: e.message })}\n`);
    else io.stdout(`state    ${paths.stateDir}\ntable    ${paths.tableFile}\nnot running: ${e.message}\n`);
    return EXIT.notRunning;
  }
  if (values.json) {
    io.stdout(`${JSON.stringify({ running: true, ...out })}\n`);
    return EXIT.ok;
  }
  io.stdout(`angelia ${out.version} · codex ${out.codexVersion ?? '(not started yet)'}\nstate    ${out.stateDir}\nsocket   ${out.socket}\n`);
  io.stdout(`${out.pendingApprovals} approval(s) waiting\n`);
  for (const u of out.usage ?? []) io.stdout(`${homeUsageLine(u)}\n`);
  for (const c of out.chats) {
    io.stdout(
      `  ${c.chat} (${c.profile}): ${c.state}${c.reason ? ` (${terminalLine(c.reason.startsWith(`${c.state}: `) ? c.reason.slice(c.state.length + 2) : c.reason)})` : ''}${c.queued ? ` · ${c.queued} queued` : ''}${c.pendingApprovals ? ` · ${c.pendingApprovals} waiting for you` : ''}${c.session ? ` · session ${shortId(c.session)}` : ''}\n`,
    );
  }
  return EXIT.ok;
}

/** The `status` command of the command table. */
export const status: CliCommand = {
  summary: "instance paths and the running Angelia's chats: status [--json]",
  exits: { 0: 'Angelia is running (its chats listed)', 1: 'Angelia refused', 2: 'usage error', 3: 'Angelia is not running (the paths are still printed)' },
  run: (argv) => runStatus(argv, processIo()),
};
