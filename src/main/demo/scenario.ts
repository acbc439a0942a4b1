/**
 * The demo's scripted behaviour: a `Responder` for the scripted model that reacts only to what the user
 * typed and to the tool outputs Codex sends back, so the demo profile's chat shows every kind of item
 * (streamed markdown, a sandboxed command, a read the sandbox blocks, a permission request, an escalation).
 *
 * Stateless: each request is answered from its own body (the last user text and the current turn's tool
 * calls with their outputs, `scriptedRequest.ts`). Tool shapes and output texts: codex-cli 0.169.0,
 * measured by test/integration/demo-scenario.test.ts. The "access" row needs Codex features
 * `request_permissions_tool` and `exec_permission_approvals` (Angelia turns them on for `default` mode).
 */
import type { Responder } from './scriptedModel';
import { isCompactionRequest, lastUserText, turnToolCalls, type TurnToolCall } from './scriptedRequest';
import type { Step } from './scriptedSteps';

/** Options of the demo responder. */
export interface DemoScenarioOptions {
  /** A file the demo profile denies (e.g. `<fake home>/.ssh/id_demo`); "secret" tries to `cat` it. */
  secretPath: string;
  /** An absolute folder outside the workspace; "access" asks to write it, "write outside" escalates into it. */
  outsideDir: string;
  /** Pause between streamed deltas of an answer, ms. Default 30. */
  deltaDelayMs?: number;
}

/** What the demo row sees for one model request. */
interface Ctx {
  text: string;
  calls: TurnToolCall[];
  opts: DemoScenarioOptions;
  say: (markdown: string) => Step;
}

/** One row of the demo table: when it applies, an example prompt, what it shows, and its moves. */
interface DemoRow {
  name: string;
  match: RegExp;
  example: string;
  shows: string;
  respond: (ctx: Ctx) => Step;
}

/** Single-quotes a string for `/bin/bash -c`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Reads an `exec_command` output string (`…Process exited with code N…\nOutput:\n<text>`); `rejected` when declined. */
export function parseExecOutput(raw: string | undefined): { exitCode?: number; output: string; rejected: boolean } {
  const s = raw ?? '';
  const code = /Process exited with code (-?\d+)/.exec(s);
  const at = s.indexOf('\nOutput:\n');
  const output = at >= 0 ? s.slice(at + '\nOutput:\n'.length) : s;
  return { ...(code ? { exitCode: Number(code[1]) } : {}), output: output.trimEnd(), rejected: /rejected by user/i.test(s) };
}

function fence(text: string): string {
  const body = text.length > 1500 ? `${text.slice(0, 1500)}\n…` : text;
  return `\`\`\`\n${body || '(no output)'}\n\`\`\``;
}

/** What a command was for: `todo` ("create X") and `done` ("created X"). */
interface Purpose {
  todo: string;
  done: string;
}

function reportExec(call: TurnToolCall | undefined, what: Purpose): string {
  const r = parseExecOutput(call?.output);
  if (r.rejected) return `You declined, so I did not ${what.todo}. Nothing was changed.`;
  if (r.exitCode === 0) return `Done: I ${what.done}.\n\n${fence(r.output)}`;
  return `I tried to ${what.todo}, but the command failed${r.exitCode === undefined ? '' : ` (exit code ${r.exitCode})`}:\n\n${fence(r.output)}`;
}

/** Empty read-only folders Codex's sandbox mounts in every writable root while a command runs (docs/sandbox-sockets.md). */
const PLACEHOLDERS = new Set(['.git', '.agents', '.codex', '.aws']);

function summarizeListing(call: TurnToolCall | undefined): string {
  const r = parseExecOutput(call?.output);
  if (r.exitCode !== 0) return reportExec(call, { todo: 'list the folder', done: 'listed the folder' });
  const entries = r.output
    .split('\n')
    .filter((l) => l && !l.startsWith('total '))
    .map((l) => ({ mode: l.split(/\s+/)[0] ?? '', name: l.split(/\s+/).slice(8).join(' ') }))
    .filter((e) => e.name && e.name !== '.' && e.name !== '..');
  const isPlaceholder = (e: { mode: string; name: string }): boolean => PLACEHOLDERS.has(e.name) && e.mode.startsWith('dr-x');
  const names = entries.filter((e) => !isPlaceholder(e)).map((e) => e.name);
  const held = entries.filter(isPlaceholder).map((e) => `\`${e.name}\``);
  const out = [
    'I ran `ls -la` in the workspace, inside the sandbox (exit code 0).',
    '',
    names.length === 0 ? 'The folder is **empty**.' : `It holds **${names.length}** entr${names.length === 1 ? 'y' : 'ies'}:`,
    ...names.slice(0, 10).map((n) => `- \`${n}\``),
  ];
  if (names.length > 10) out.push(`- … and ${names.length - 10} more`);
  if (held.length > 0) out.push('', `The sandbox also showed ${held.join(', ')} as empty read-only folders: Codex keeps those out of the agent's reach.`);
  return out.join('\n');
}

function grantedWrite(call: TurnToolCall | undefined, dir: string): boolean {
  try {
    const parsed = JSON.parse(call?.output ?? '') as { permissions?: { file_system?: { write?: unknown } | null } };
    const write = parsed.permissions?.file_system?.write;
    return Array.isArray(write) && write.includes(dir);
  } catch {
    return false;
  }
}

const HELLO = `## Hello! 👋

I am the **demo agent**: a scripted model driving a real Codex, held by Codex's own sandbox.

Things to try:
- type **run** — I run \`ls -la\` in this profile's folder, inside the sandbox
- ask for the **secret** — I try to read a file this profile denies, and the sandbox blocks it
- ask for **access** — I request write access to one folder, for this turn only
- ask me to **write outside** — I ask to run one command outside the sandbox

Every command and request shows up here, and you decide.`;

/** The demo table: first matching row wins; the last row matches everything. */
const ROWS: DemoRow[] = [
  {
    name: 'write-outside',
    match: /write\s+outside/i,
    example: 'write outside the workspace',
    shows: 'an escalation request: one command outside the sandbox, run only if you allow it',
    respond: ({ calls, opts, say }) => {
      const file = `${opts.outsideDir.replace(/\/+$/, '')}/angelia-demo-escalated.txt`;
      if (calls.length === 0) {
        return {
          exec: {
            cmd: `touch ${shellQuote(file)} && echo wrote ${shellQuote(file)}`,
            sandbox_permissions: 'require_escalated',
            justification: `Create ${file}, outside the workspace the sandbox lets me write`,
          },
        };
      }
      return say(reportExec(calls[0], { todo: `create \`${file}\` outside the sandbox`, done: `created \`${file}\` outside the sandbox, with your approval` }));
    },
  },
  {
    name: 'access',
    match: /\baccess\b/i,
    example: 'I need access to the shared folder',
    shows: 'a permission request for one folder (this turn only), then a write there',
    respond: ({ calls, opts, say }) => {
      const dir = opts.outsideDir.replace(/\/+$/, '') || '/';
      const file = `${dir}/angelia-demo-access.txt`;
      if (calls.length === 0) {
        return { requestPermissions: { reason: `Write a note into ${dir}`, permissions: { file_system: { write: [dir] } } } };
      }
      if (calls.length === 1) {
        if (!grantedWrite(calls[0], dir)) return say(`Write access to \`${dir}\` was not granted, so I wrote nothing there.`);
        return { exec: { cmd: `echo 'written by the Angelia demo agent' > ${shellQuote(file)} && ls -l ${shellQuote(file)}` } };
      }
      return say(reportExec(calls[1], { todo: `write \`${file}\``, done: `wrote \`${file}\` with the access you granted for this turn` }));
    },
  },
  {
    name: 'secret',
    match: /\bsecrets?\b/i,
    example: 'show me the secret key',
    shows: 'a read of a denied file: the sandbox blocks it and the agent says so',
    respond: ({ calls, opts, say }) => {
      if (calls.length === 0) return { exec: { cmd: `cat ${shellQuote(opts.secretPath)}` } };
      const r = parseExecOutput(calls[0]?.output);
      if (/permission denied/i.test(r.output)) {
        return say(
          `I tried to read \`${opts.secretPath}\`, but **the sandbox blocked it**:\n\n${fence(r.output)}\n\nThis profile denies that path, and approving an escalation would not open it either. I cannot show you its content.`,
        );
      }
      if (r.exitCode === 0) return say(`The read of \`${opts.secretPath}\` was **not** blocked: the sandbox let it through. Check this profile's deny list.`);
      return say(`I could not read \`${opts.secretPath}\`${r.exitCode === undefined ? '' : ` (exit code ${r.exitCode})`}:\n\n${fence(r.output)}`);
    },
  },
  {
    name: 'run',
    match: /\brun\b/i,
    example: 'run ls in my folder',
    shows: 'a command run inside the sandbox, with live output, then a summary',
    respond: ({ calls, say }) => (calls.length === 0 ? { exec: { cmd: 'ls -la' } } : say(summarizeListing(calls[0]))),
  },
  {
    name: 'hello',
    match: /[\s\S]*/,
    example: 'hello',
    shows: 'a markdown answer streamed in several pieces',
    respond: ({ say }) => say(HELLO),
  },
];

/** The example prompts, in table order: `{prompt, shows}` for the demo's UI hint and the README. */
export const demoPrompts: ReadonlyArray<{ prompt: string; shows: string }> = ROWS.map((r) => ({ prompt: r.example, shows: r.shows }));

/** The name of the demo row that answers `text` (`write-outside`, `access`, `secret`, `run`, `hello`). */
export function demoRowFor(text: string): string {
  return (ROWS.find((r) => r.match.test(text)) ?? (ROWS[ROWS.length - 1] as DemoRow)).name;
}

/** The demo's Responder (pass it as `startScriptedModel({script})`). */
export function demoResponder(opts: DemoScenarioOptions): Responder {
  const delayMs = opts.deltaDelayMs ?? 30;
  const say = (markdown: string): Step => ({ message: markdown, chunks: Math.max(3, Math.min(24, Math.ceil(markdown.length / 40))), delayMs });
  return (body) => {
    if (isCompactionRequest(body)) return { message: 'Summary: a demo conversation with the scripted Angelia demo agent.' };
    const text = lastUserText(body) ?? '';
    const row = ROWS.find((r) => r.match.test(text)) ?? (ROWS[ROWS.length - 1] as DemoRow);
    return row.respond({ text, calls: turnToolCalls(body), opts, say });
  };
}
