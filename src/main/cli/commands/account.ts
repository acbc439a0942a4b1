/**
 * `angelia account [--json]`, `angelia login [--api-key | --device-code] [--no-browser]` and
 * `angelia logout`: the Codex account of the instance's Codex home (`CODEX_HOME`, else `~/.codex`), read
 * and changed in this process over a short-lived app-server of Angelia's own (core/account/service.ts); no
 * running Angelia is needed. `account --json` prints the stable `AccountView` (src/shared/account.ts:
 * `{codexHome, signedIn, method, email, plan, requiresOpenaiAuth}`).
 *
 * `login --api-key` reads the key, never from an argument (so it is in no process list or shell
 * history): on a terminal as a password prompt without echo (cli/secretPrompt.ts; Ctrl-C cancels, exit
 * 1), else from the first line of standard input. It goes only into Codex's `account/login/start`
 * request body and is never printed.
 * `login` (ChatGPT in the browser) prints the address, tries to open it, and waits for Codex to say the
 * sign-in completed (Ctrl-C cancels it with `account/login/cancel`); `--device-code` prints the address
 * and the code to type there, and waits the same way.
 * Exit: 0 done · 1 Codex did not take it (the reason on stderr) · 2 usage.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { LoginProgress, LoginRequest } from '../../../shared/account';
import { toAppError } from '../../../shared/result';
import { EXIT, processIo, type CliIo } from '../../api/cli';
import { AccountService } from '../../core/account/service';
import { accountSentence } from '../../core/account/view';
import { startCodexClient } from '../../core/codex/start';
import { resolveInstance } from '../../core/instance/paths';
import type { CliCommand } from '../command';
import { promptSecret } from '../secretPrompt';

/** What the commands need besides the io: the service (tests may hand in one) and how to open a browser. */
export interface AccountCliDeps {
  service?: AccountService;
  openUrl?: (url: string) => void;
  /** Where Ctrl-C is heard (default: this process's SIGINT); returns the unsubscribe. */
  onInterrupt?: (handler: () => void) => () => void;
  /**
   * Asks for the API key on a terminal without echo (cli/secretPrompt.ts `promptSecret`); null when the
   * user cancelled. Absent (stdin is not a terminal): the key is the first line of `io.stdin()`.
   */
  promptSecret?: (prompt: string) => Promise<string | null>;
}

/** The deps of `login` in this process: the no-echo prompt when stdin is a terminal. */
function processLoginDeps(): AccountCliDeps {
  if (!process.stdin.isTTY) return {};
  return { promptSecret: (prompt) => promptSecret(prompt, process.stdin, (t) => void process.stderr.write(t)) };
}

const serviceFor = (io: CliIo): AccountService =>
  new AccountService({ codexHome: resolveInstance(io.env).codexHome, env: io.env, start: (spec) => startCodexClient(spec) });

/** Opens `url` with the platform's opener, detached; a missing opener is ignored (the address is printed). */
function openInBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the address printed above is enough.
  }
}

const onSigint = (handler: () => void): (() => void) => {
  process.on('SIGINT', handler);
  return () => void process.off('SIGINT', handler);
};

function parse(name: string, argv: string[], options: Record<string, { type: 'boolean' }>, io: CliIo, usage: string): Record<string, boolean> | null {
  try {
    return parseArgs({ args: argv, allowPositionals: false, options }).values as Record<string, boolean>;
  } catch (e) {
    io.stderr(`angelia ${name}: ${(e as Error).message}\nusage: ${usage}\n`);
    return null;
  }
}

/** Runs `account` with `argv` on `io`; answers the exit code. */
export async function runAccount(argv: string[], io: CliIo, deps: AccountCliDeps = {}): Promise<number> {
  const values = parse('account', argv, { json: { type: 'boolean' } }, io, 'angelia account [--json]');
  if (!values) return EXIT.usage;
  try {
    const view = await (deps.service ?? serviceFor(io)).read();
    io.stdout(values.json ? `${JSON.stringify(view, null, 2)}\n` : `${accountSentence(view)}\n`);
    return EXIT.ok;
  } catch (e) {
    io.stderr(`angelia account: ${toAppError(e).message}\n`);
    return EXIT.refused;
  }
}

/** Runs `logout` with `argv` on `io`; answers the exit code. */
export async function runLogout(argv: string[], io: CliIo, deps: AccountCliDeps = {}): Promise<number> {
  if (!parse('logout', argv, {}, io, 'angelia logout')) return EXIT.usage;
  try {
    const view = await (deps.service ?? serviceFor(io)).logout();
    io.stdout(`${view.signedIn ? accountSentence(view) : `Signed out: Codex home ${view.codexHome} holds no sign-in.`}\n`);
    return view.signedIn ? EXIT.refused : EXIT.ok;
  } catch (e) {
    io.stderr(`angelia logout: ${toAppError(e).message}\n`);
    return EXIT.refused;
  }
}

/** The first line of `text` without its line end. */
const firstLine = (text: string): string => (text.split(/\r?\n/, 1)[0] ?? '').trim();

/** Runs `login` with `argv` on `io`; answers the exit code. */
export async function runLogin(argv: string[], io: CliIo, deps: AccountCliDeps = {}): Promise<number> {
  const usage = 'angelia login [--api-key | --device-code] [--no-browser]';
  const values = parse('login', argv, { 'api-key': { type: 'boolean' }, 'device-code': { type: 'boolean' }, 'no-browser': { type: 'boolean' } }, io, usage);
  if (!values) return EXIT.usage;
  if (values['api-key'] && values['device-code']) {
    io.stderr(`angelia login: --api-key and --device-code do not go together\nusage: ${usage}\n`);
    return EXIT.usage;
  }
  let req: LoginRequest;
  if (values['api-key']) {
    const typed = deps.promptSecret ? await deps.promptSecret('OpenAI API key (not shown; Enter ends, Ctrl-C cancels): ') : firstLine(await io.stdin());
    if (typed === null) {
      io.stderr('angelia login: cancelled; Codex is not signed in by it\n');
      return EXIT.refused;
    }
    const apiKey = typed.trim();
    if (!apiKey) {
      io.stderr('angelia login: no API key given (type it at the prompt, or give it as one line: `angelia login --api-key < keyfile`)\n');
      return EXIT.usage;
    }
    req = { method: 'apiKey', apiKey };
  } else req = { method: values['device-code'] ? 'deviceCode' : 'chatgpt' };
  const service = deps.service ?? serviceFor(io);
  let progress: LoginProgress;
  try {
    progress = await service.login(req);
  } catch (e) {
    io.stderr(`angelia login: ${toAppError(e).message}\n`);
    return EXIT.refused;
  }
  if (progress.state === 'pending' && progress.loginId) progress = await waitPending(progress, service, io, deps, !values['no-browser']);
  return report(progress, io, service);
}

/** Prints where to sign in, opens the browser, and waits for the end (Ctrl-C cancels). */
async function waitPending(p: LoginProgress, service: AccountService, io: CliIo, deps: AccountCliDeps, browser: boolean): Promise<LoginProgress> {
  const loginId = p.loginId as string;
  if (p.method === 'chatgpt' && p.authUrl) {
    io.stdout(`Sign in to ChatGPT in your browser:\n  ${p.authUrl}\n(Codex waits for the browser on 127.0.0.1:1455; Ctrl-C cancels.)\n`);
    if (browser) (deps.openUrl ?? openInBrowser)(p.authUrl);
  } else if (p.verificationUrl && p.userCode) {
    io.stdout(`Open ${p.verificationUrl} on any device and enter the code:\n  ${p.userCode}\n(Ctrl-C cancels.)\n`);
  }
  const off = (deps.onInterrupt ?? onSigint)(() => void service.cancel(loginId));
  try {
    return (await service.waitFor(loginId)) ?? { ...p, state: 'failed', error: 'the sign-in ended unseen' };
  } finally {
    off();
  }
}

/**
 * Said after an API-key sign-in: Codex stores the key without checking it (codex 0.169.0,
 * `account/login/start {type:"apiKey"}` completes at once), so a wrong key shows only at the first turn.
 */
export const API_KEY_TAKEN =
  'Codex took the key as given: it does not check it; the model provider does, at the first turn (a key it refuses fails that turn with HTTP 401).';

async function report(p: LoginProgress, io: CliIo, service: AccountService): Promise<number> {
  if (p.state === 'completed') {
    const view = await service.read().catch(() => null);
    io.stdout(`${view ? accountSentence(view) : 'Signed in.'}\n`);
    if (p.method === 'apiKey') io.stdout(`${API_KEY_TAKEN}\n`);
    return EXIT.ok;
  }
  io.stderr(
    p.state === 'cancelled'
      ? 'angelia login: cancelled; Codex is not signed in by it\n'
      : `angelia login: Codex did not sign in: ${p.error ?? 'no reason given'}\n`,
  );
  return EXIT.refused;
}

const ACCOUNT_EXITS = { 0: 'done', 1: 'Codex could not do it (the reason on stderr)', 2: 'usage error' } as const;

/** The `account` command of the command table. */
export const account: CliCommand = {
  summary: "who Codex is signed in as, for Angelia's Codex home (no running Angelia needed): account [--json]",
  exits: { 0: 'shown', 1: 'Codex could not read its account', 2: 'usage error' },
  options: ['--json   {"codexHome", "signedIn", "method": "apiKey"|"chatgpt"|null, "email", "plan", "requiresOpenaiAuth"}'],
  run: (argv) => runAccount(argv, processIo()),
};

/** The `login` command of the command table. */
export const login: CliCommand = {
  summary: 'sign Codex in: ChatGPT in the browser (default), --device-code, or --api-key (typed without echo, or one line on stdin)',
  exits: { 0: 'signed in', 1: 'Codex did not sign in (refused, failed or cancelled)', 2: 'usage error, or no key given' },
  options: [
    '--api-key       an OpenAI API key: typed at a prompt without echo on a terminal, else the first line of standard input (never an argument)',
    '--device-code   print an address and a code to type there, on any device',
    '--no-browser    print the ChatGPT address without opening a browser',
  ],
  run: (argv) => runLogin(argv, processIo(), processLoginDeps()),
};

/** The `logout` command of the command table. */
export const logout: CliCommand = {
  summary: "sign Codex out (Codex removes auth.json from Angelia's Codex home)",
  exits: ACCOUNT_EXITS,
  run: (argv) => runLogout(argv, processIo()),
};
