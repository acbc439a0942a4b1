/**
 * `angelia run <profile> <prompt> [--json] [--approve ask|allow|deny] [--new]`: one turn in the profile's
 * chat, starting or resuming its thread, in this process (`--new`: in a new session, as `/new` first).
 * STABLE interface (scripts rely on it):
 * - text mode streams the agent's text and asks approvals on the terminal (`ask` is the default on a
 *   TTY, `deny` otherwise);
 * - `--json` prints one JSON object a line: `{"type":"item","item":ChatItem}` as items complete,
 *   `{"type":"approval","id","kind","answer"}` per approval, when Codex reported usage a
 *   `{"type":"usage","tokens","rateLimits"}` line (src/shared/usage.ts `RunUsageLine`: the turn's tokens,
 *   the account's latest rate limits), and last `{"type":"turn-end","ok","text","reason"?,"thread"}`;
 * - exit 0 when the turn completed, 1 when it failed, 2 on a usage error or an unknown profile or chat
 *   (as `angelia export`), 3 when the start was refused (reason on stderr).
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { START_FAILURE_KINDS, type ApprovalAnswer, type ApprovalView, type AppEvent } from '../../../shared/contract';
import { toAppError } from '../../../shared/result';
import { composeCore } from '../../app/compose';
import type { Orchestrator } from '../../core/chats/orchestrator';
import { startCodexClient } from '../../core/codex/start';
import type { CliCommand } from '../command';
import { isUnknownName } from '../exit';
import { runUsageLine } from '../../core/usage/limits';
import { visibleText } from '../../../shared/untrustedText';
import { describeApproval, terminalLine, terminalText } from '../terminalText';
import { runningAngelia } from '../running';

type Policy = 'ask' | 'allow' | 'deny';

/** The answer a fixed policy gives, among those offered. */
export function policyAnswer(policy: 'allow' | 'deny', offered: ApprovalAnswer[]): ApprovalAnswer {
  const order: ApprovalAnswer[] = policy === 'allow' ? ['allow', 'allowForSession'] : ['deny', 'cancel'];
  return order.find((a) => offered.includes(a)) ?? (policy === 'allow' ? (offered[0] ?? 'deny') : 'cancel');
}

/**
 * True for a request only typed answers or form content can allow (an agent question; an MCP form
 * with fields): `run` has no way to collect them, so it skips (declines) those at once, whatever the policy.
 */
export function needsInput(v: Pick<ApprovalView, 'kind' | 'elicitation'>): boolean {
  return v.kind === 'userInput' || (v.kind === 'elicitation' && (v.elicitation?.fields.length ?? 0) > 0);
}

const KEYS: Record<string, ApprovalAnswer> = { y: 'allow', yes: 'allow', s: 'allowForSession', n: 'deny', no: 'deny', c: 'cancel' };
const LABEL: Record<ApprovalAnswer, string> = { allow: '[y]es', allowForSession: '[s]ession', deny: '[n]o', cancel: '[c]ancel (deny and stop)' };

async function askTerminal(v: ApprovalView): Promise<ApprovalAnswer> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const a = KEYS[(await rl.question(`${describeApproval(v)}\n${v.answers.map((x) => LABEL[x]).join(' / ')}? `)).trim().toLowerCase()];
      if (a && v.answers.includes(a)) return a;
    }
  } finally {
    rl.close();
  }
}

export const run: CliCommand = {
  summary: "run one turn in a profile's chat: run <profile> <prompt> [--json] [--approve ask|allow|deny] [--new]",
  exits: {
    0: 'the turn completed',
    1: 'the turn failed',
    2: 'usage error, or an unknown profile or chat',
    3: 'the start was refused (the reason on stderr, and in the last JSON line with --json)',
  },
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, approve: { type: 'string' }, new: { type: 'boolean' } },
    });
    const [profile, ...words] = positionals;
    const prompt = words.join(' ');
    const policy = (values.approve ?? (process.stdin.isTTY && !values.json ? 'ask' : 'deny')) as Policy;
    if (!['ask', 'allow', 'deny'].includes(policy)) {
      process.stderr.write(`angelia run: --approve must be ask, allow or deny (got ${JSON.stringify(policy)})\n`);
      return 2;
    }
    if (!profile || !prompt) {
      process.stderr.write('usage: angelia run <profile> <prompt> [--json] [--approve ask|allow|deny] [--new]\n');
      return 2;
    }
    const json = values.json === true;
    const out = (o: unknown): void => void process.stdout.write(JSON.stringify(o) + '\n');
    // A running Angelia holds its chats' threads (Codex allows one writer per thread): a second Codex here
    // would be refused, or with --new would leave the app on the old thread while sessions.json names the new one.
    const running = await runningAngelia(process.env);
    if (running) {
      const reason = `Angelia is running on this instance (${running}): send the message through it with \`angelia turn ${profile} <message>\` (its window's /new starts a new session), or quit it first.`;
      process.stderr.write(`angelia: ${reason}\n`);
      if (json) out({ type: 'turn-end', ok: false, text: '', reason, thread: null });
      return 3;
    }
    let orch: Orchestrator;
    let codexHome: string;
    try {
      // One turn and exit: nothing to review, so the table file is not watched (no watcher to set up and close).
      const core = await composeCore({ env: process.env, startCodex: startCodexClient, watchTable: false });
      orch = core.orchestrator;
      codexHome = core.paths.codexHome;
    } catch (e) {
      const err = toAppError(e);
      const reason = `${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}`;
      process.stderr.write(`angelia: ${reason}\n`);
      if (json) out({ type: 'turn-end', ok: false, text: '', reason, thread: null });
      return 3;
    }
    let chat: ReturnType<Orchestrator['chat']>;
    try {
      chat = orch.chat(profile);
    } catch (e) {
      await orch.shutdown();
      if (!isUnknownName(e)) throw e;
      // An unknown profile or chat is a usage error (exit 2), as in `angelia export` (cli/exit.ts).
      const err = toAppError(e);
      process.stderr.write(`angelia run: ${err.message}${err.fix ? ` (${err.fix})` : ''}\n`);
      return 2;
    }
    if (values.new) {
      // As `/new` typed in the chat (commands/new.ts), before anything is printed: the turn goes to a new session.
      chat.send('/new');
      await chat.idle();
    }
    const printed = new Set<string>();
    // The chat's own error line for a refused start already says why (and that nothing was sent): not said twice.
    let refusalPrinted = false;
    const answering = new Set<string>();
    const unsubscribe = orch.subscribe((e: AppEvent) => {
      // On a terminal the agent's text is escaped as it streams (terminalText); a pipe gets it as written.
      if (e.event === 'chat:delta' && !json && e.payload.chatId === profile)
        process.stdout.write(process.stdout.isTTY ? visibleText(e.payload.delta, { lines: true }) : e.payload.delta);
      if (e.event === 'chat:item' && e.payload.chatId === profile) {
        const item = e.payload.item;
        const done = item.type === 'agent' ? item.done : item.type === 'command' || item.type === 'fileChange' ? item.status !== 'running' : true;
        if (json && done && item.type !== 'user') out({ type: 'item', item });
        if (!json && done && !printed.has(item.id)) {
          printed.add(item.id);
          if (item.type === 'agent') process.stdout.write('\n');
          if (item.type === 'command') process.stderr.write(`$ ${terminalText(item.command)} → exit ${item.exitCode ?? '?'} (${item.status})\n`);
          if (item.type === 'notice') process.stderr.write(`note: ${terminalText(item.text)}\n`);
          if (item.type === 'warning') process.stderr.write(`WARNING: ${terminalText(item.text)}\n`);
          if (item.type === 'error') {
            process.stderr.write(`error: ${terminalText(item.message)}${item.detail ? `\n${terminalText(item.detail, '')}` : ''}\n`);
            if (item.kind && START_FAILURE_KINDS.has(item.kind)) refusalPrinted = true;
          }
        }
      }
      if (e.event === 'approval:updated') {
        const v = e.payload;
        if (v.state === 'pending' && !answering.has(v.id)) {
          answering.add(v.id);
          if (needsInput(v)) process.stderr.write(`angelia run cannot answer this here (${terminalLine(v.title)}); it was skipped.\n`);
          const answer = needsInput(v)
            ? Promise.resolve(policyAnswer('deny', v.answers))
            : policy === 'ask'
              ? askTerminal(v)
              : Promise.resolve(policyAnswer(policy, v.answers));
          void answer
            .then((a) => orch.answerApproval(v.id, a, 'cli'))
            .catch((e: unknown) => process.stderr.write(`angelia: the answer was refused: ${terminalLine(toAppError(e).message)}\n`));
        } else if (v.state !== 'pending') {
          if (json)
            out({ type: 'approval', id: v.id, kind: v.kind, answer: v.answer === 'allow' || v.answer === 'allowForSession' ? 'allow' : 'deny', by: v.by });
          else process.stderr.write(`approval ${v.id.slice(0, 8)}: ${v.state === 'withdrawn' ? 'withdrawn' : v.answer} (${v.by})\n`);
        }
      }
    });
    // Ctrl-C (or TERM) stops the turn and the Codex process in order, so no sandbox helper is left behind.
    let signalled: NodeJS.Signals | null = null;
    const onSignal = (sig: NodeJS.Signals): void => {
      if (signalled) return;
      signalled = sig;
      process.stderr.write(`angelia: ${sig}: stopping the turn and Codex\n`);
      void chat
        .interrupt()
        .catch(() => false)
        .finally(() => void orch.shutdown().finally(() => process.exit(130)));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      chat.send(prompt);
      await chat.idle();
    } finally {
      unsubscribe();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const view = chat.view();
    const end = orch.lastTurnEnd(profile);
    await orch.shutdown();
    const text = orch.lastAgentText(profile);
    if (view.refusal) {
      if (!refusalPrinted) process.stderr.write(`angelia: ${view.refusal}\n`);
      if (json) out({ type: 'turn-end', ok: false, text, reason: view.refusal, thread: view.threadId });
      return 3;
    }
    const ok = end?.type === 'turnEnd' && end.status === 'completed';
    const usage = runUsageLine(view.usage, orch.usage.get(codexHome).rateLimits);
    if (json && usage) out(usage);
    const reason = end?.type === 'turnEnd' ? end.reason : 'the turn did not run';
    if (json) out({ type: 'turn-end', ok, text, ...(ok ? {} : { reason: reason ?? end?.type ?? 'failed' }), thread: view.threadId });
    else if (!ok) process.stderr.write(`angelia: the turn ${end?.type === 'turnEnd' ? end.status : 'failed'}${reason ? `: ${terminalText(reason)}` : ''}\n`);
    return ok ? 0 : 1;
  },
};
