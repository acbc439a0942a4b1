/**
 * `angelia guide [topic]`: the manual agents read (README "The loopback API"), printed on stdout.
 * Topics that apply to the desktop: `api` (how to reach Angelia from inside the sandbox: the commands,
 * the channel, who may do what, what is refused and why, the exit codes), `commands` (the commands an
 * agent can run, with their options and exit codes), `profiles` (the profile words) and `layout` (the
 * folders an agent sees). No topic: all four. An unknown topic is a usage error (exit 2) naming the
 * topics.
 *
 * It needs no token, no socket and no state: it runs anywhere, inside the sandbox too (also in a
 * read-only copy answering a question, which it says has no channel). Inside an agent it names the
 * agent's own chat and `angelia` launcher when its environment tells them (`ANGELIA_SESSION_KEY`, else
 * the chat of the mailbox's identity file — never the token; the launcher beside `ANGELIA_MAILBOX`).
 *
 * One source with what agents are told elsewhere: the `angelia` paragraph of the developer
 * instructions (compile/developerInstructions.ts `apiParagraph`), the commands' own summaries, options
 * and exit codes (the command table), who may call which route (the API's route table, routes.ts
 * `access`), the refusals' own texts (api/client.ts ESCALATED, READ_ONLY_COPY) and the permission modes
 * of the table's schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ESCALATED, READ_ONLY_COPY } from '../../api/client';
import { routes } from '../../api/routes';
import { IDENTITY_FILE } from '../../core/launch/mailbox';
import { apiParagraph } from '../../core/compile/developerInstructions';
import { PERMISSION_MODES, type PermissionMode } from '../../core/table/schema';
import type { CliCommand } from '../command';
import { API_EXITS, exitCodesText } from '../exit';
import { commandLoaders, loadCommand } from './lazy';

/** The guide's topics, in the order `angelia guide` prints them. */
export const GUIDE_TOPICS = ['api', 'commands', 'profiles', 'layout'] as const;
/** One of GUIDE_TOPICS. */
export type GuideTopic = (typeof GUIDE_TOPICS)[number];

/** The commands an agent runs (the rest need the owner token or Angelia's state, which the sandbox denies). */
export const AGENT_COMMANDS = ['send', 'send-media', 'turn', 'ask', 'guide'] as const;

/** What the guide knows about where it runs. Null fields are shown as placeholders. */
export interface GuideContext {
  /** The agent's own chat, or null (not inside an agent, or not told). */
  chat: string | null;
  /** The state folder, when known from the agent's mailbox; else null (`<state>`). */
  stateDir: string | null;
  /** True inside a read-only copy answering a question (`ANGELIA_ASK=1`). */
  askCopy: boolean;
}

/**
 * Where the guide runs, from `env`: the chat from `ANGELIA_SESSION_KEY`, else from the mailbox's
 * identity file (its `chat` only); the state folder from `ANGELIA_MAILBOX` (`<state>/mailbox/<hash>`).
 * Never throws: what cannot be read is left null.
 */
export function guideContext(env: NodeJS.ProcessEnv): GuideContext {
  const mailbox = env.ANGELIA_MAILBOX?.trim() || null;
  let chat = env.ANGELIA_SESSION_KEY?.trim() || null;
  if (!chat && mailbox) {
    try {
      const id = JSON.parse(readFileSync(join(mailbox, IDENTITY_FILE), 'utf8')) as { chat?: unknown };
      if (typeof id.chat === 'string' && id.chat) chat = id.chat;
    } catch {
      // Not readable here (an escalated command, or no identity yet): the placeholder is shown.
    }
  }
  return { chat, stateDir: mailbox ? join(mailbox, '..', '..') : null, askCopy: env.ANGELIA_ASK === '1' };
}

/** `text` wrapped at `width` columns, each line after `indent`; existing line breaks are kept. */
export function wrap(text: string, width = 100, indent = ''): string {
  return text
    .split('\n')
    .map((para) => {
      const lines: string[] = [];
      let line = '';
      for (const word of para.split(' ')) {
        if (line && indent.length + line.length + 1 + word.length > width) {
          lines.push(indent + line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(indent + line);
      return lines.join('\n');
    })
    .join('\n');
}

function state(ctx: GuideContext): string {
  return ctx.stateDir ?? '<state>';
}

/** What a peer (an agent writing into another chat) needs, per route, besides the route allowing it. */
const PEER_TERMS: Record<string, string> = {
  '/send': 'labelled; MEDIA: lines attach nothing',
  '/turn': "that profile's accept_from lists yours",
  '/ask': "that profile's answer_from lists yours",
};

/** The "who may do what" table, from the route table's `access` (routes.ts). */
export function accessTable(): string {
  const rows = routes
    .filter((r) => r.access !== 'public')
    .map((r) => {
      const access = r.access as readonly string[];
      const cell = (cls: string): string => (access.includes(cls) ? 'yes' : 'no');
      const peer = access.includes('peer') ? `yes: ${PEER_TERMS[r.path] ?? 'see the route'}` : 'no';
      return [`${r.method} ${r.path}`, cell('owner'), cell('chat'), peer];
    });
  const head = ['route', 'owner', 'chat (your own)', 'peer (another chat)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`;
  return [line(head), ...rows.map(line)].join('\n');
}

function apiTopic(ctx: GuideContext): string {
  const command = ctx.stateDir ? join(ctx.stateDir, 'bin', 'angelia') : '<state>/bin/angelia';
  return [
    'HOW TO REACH ANGELIA FROM INSIDE THE SANDBOX (angelia guide api)',
    '',
    ...(ctx.askCopy ? [wrap(`Here: ${READ_ONLY_COPY}`), ''] : []),
    wrap(apiParagraph({ command, chat: ctx.chat ?? '<your chat>' })),
    '',
    wrap(
      `The channel. angelia picks it itself; there is nothing to set up. It tries Angelia's API socket (${state(ctx)}/api.sock) first: on macOS the sandbox allows that one socket file. On Linux Codex's sandbox refuses every Unix socket, so the command writes the request into your chat's mailbox (${state(ctx)}/mailbox/<hash>/, a folder only your chat's agent can write) and Angelia, outside the sandbox, answers it there with the same checks. Your chat and its token come from the identity.json in that folder; never copy the token anywhere. The event stream (/events) is on the socket only, and for the owner only.`,
    ),
    '',
    wrap(
      'Who may do what. Your commands carry your chat\'s token: for your own chat you are "chat", for any other chat "peer". The owner token reaches everything.',
    ),
    accessTable(),
    '',
    'What is refused, and why:',
    ...[
      'Files into another chat (send-media to it: "files go only into your own chat"): only the owner gives files to other profiles.',
      "A turn in another profile's chat unless its accept_from lists your profile, a question unless its answer_from does (403 not-accepted): each profile decides who may put work on it.",
      'Anything to or from an isolated profile (403 isolated).',
      'More than 30 messages an hour from your chat to one other chat, send, turn and ask together (429 rate-limited). Chats of your own profile share your folder and sandbox: between them only this limit applies.',
      'Asking your own chat (403): its turn is the one running, yours.',
      'A turn with reply, plain or files (403): owner only. A chat holds at most 10 turns, running and waiting (429 queue-full).',
      'Reading anything (profiles, status, sessions, history, events, approvals) and answering approvals (403): owner only, so no agent approves its own requests.',
      'send-media from a credential or system location, Angelia\'s state, a secrets folder or a credential file name ("refusing to send from that location"); a file your profile may not read ("this profile may not read that file"); anything but a regular, non-empty file of at most 25 MiB with one name.',
      `A command run outside the sandbox after an approval: ${ESCALATED('<your mailbox>', 'EACCES')}`,
      `A read-only copy answering a question (angelia ask, POST /ask) has no channel: "${READ_ONLY_COPY}"`,
    ].map((l) => wrap(`- ${l}`).replace(/\n/g, '\n  ')),
    '',
    wrap(
      'What you send arrives as "[from <your profile>]", a blank line, then your text. A line of yours that could pass for a label, an attachment line or a quote (it starts with a bracket or ">", also after invisible characters or as a fullwidth or other lookalike) arrives quoted with "> ", so no message poses as the owner or another profile.',
    ),
    '',
    exitCodesText(API_EXITS).trimEnd(),
  ].join('\n');
}

async function commandsTopic(): Promise<string> {
  const out = ['THE COMMANDS AN AGENT RUNS (angelia guide commands)', ''];
  for (const name of AGENT_COMMANDS) {
    const c = await loadCommand(name);
    if (!c) continue;
    out.push(wrap(`angelia ${c.summary.replace(/^[^:]*: /, '')}`), wrap(c.summary.replace(/:.*$/, ''), 100, '  '));
    if (c.options?.length) out.push(...c.options.map((l) => `    ${l}`));
    out.push('');
  }
  const owner = Object.keys(commandLoaders).filter((n) => !(AGENT_COMMANDS as readonly string[]).includes(n));
  out.push(
    wrap(`The others are the owner's: ${owner.join(', ')}. They need the owner token or Angelia's state, which your sandbox denies.`),
    '',
    exitCodesText(API_EXITS)
      .replace(/^exit codes:/, 'exit codes of send, send-media, turn and ask:')
      .trimEnd(),
    '',
    exitCodesText(guide.exits)
      .replace(/^exit codes:/, 'exit codes of guide:')
      .trimEnd(),
  );
  return out.join('\n');
}

const MODE_MEANING: Record<PermissionMode, string> = {
  default: 'Codex asks the owner before doing more than the sandbox allows; you may ask for one more folder for this turn (approval policy on-request).',
  acceptEdits: 'the same as default for Codex: it asks before doing more than the sandbox allows (on-request).',
  bypassPermissions: 'Codex never asks; the sandbox still holds (approval policy never).',
  plan: 'read-only: you may read, write nothing, and Codex never asks.',
};

function profilesTopic(): string {
  const words: [string, string][] = [
    [
      'profile',
      "a named folder (its cwd) and the rules its agent runs under: a permission mode, the folders it may write, its capabilities; all held by Codex's own OS sandbox. Names are one word of letters, digits, _ and -. The profiles are in Angelia's table (angelia.toml; your instructions name its file): read it, do not change it unless asked.",
    ],
    [
      'chat',
      "one conversation with one profile's agent; the name the commands take. A profile's first chat is named after the profile; more chats of it get their own names. Chats of one profile share its folder and sandbox.",
    ],
    ['session', 'one Codex thread of a chat; the owner starts a new one with /new and goes back with /resume.'],
    ['permission_mode', PERMISSION_MODES.map((m) => `${m}: ${MODE_MEANING[m]}`).join('\n')],
    ['sandbox', "true: Codex's OS sandbox holds the agent. false: full access to the computer (shown in red everywhere)."],
    ['add_dirs', 'more folders the agent may write, besides its cwd and _common/.'],
    ['isolated', 'the profile cannot message other profiles nor be messaged by them, and gets no _common/.'],
    ['accept_from', 'the profiles that may give this profile a turn (angelia turn), or "*" for every one.'],
    ['answer_from', 'the profiles that may ask it a question (angelia ask), or "*" for every one.'],
    ['capabilities', 'named tools, skills, MCP servers or folders a profile is given (defaults minus except, plus its own, minus deny).'],
  ];
  return ['THE PROFILE WORDS (angelia guide profiles)', '', ...words.map(([w, d]) => `${w}\n${wrap(d, 100, '  ')}`)].join('\n');
}

function layoutTopic(ctx: GuideContext): string {
  const s = state(ctx);
  const places: [string, string][] = [
    ['your folder (cwd)', 'your working directory, writable. A .git folder at the top of a writable folder is read-only: you cannot commit.'],
    ['<cwd>/.inbox/', 'files the owner gives you (dropped into the chat, or angelia turn --file), one copy each, mode 600.'],
    ['add_dirs', 'more writable folders, named in your instructions.'],
    [
      `${s}/workspace/`,
      "the table (angelia.toml) and the profiles' shared folders; readable. _common/ in it is writable by every profile that is not isolated; _shared/ and _capabilities/ only with shared_write.",
    ],
    [
      `${s}/cache/codex/<hash>/`,
      "your profile's own temp folder (TMPDIR) and package caches (npm, pip, uv, XDG); no other profile reaches them. /tmp is read-only.",
    ],
    [`${s}/bin/angelia`, 'the angelia command (readable, written by Angelia).'],
    [`${s}/mailbox/<hash>/`, "your chat's mailbox: angelia writes requests there and reads the answers. Leave its files to angelia."],
    [
      'denied',
      `the rest of Angelia's state (${s}/private/, compiled/, approvals/, logs/, media/, exports/, other chats' mailboxes and other profiles' caches), credentials under your home (~/.ssh, ~/.aws, …), Codex's own stores (~/.codex/auth.json, sessions, …) and other profiles' folders.`,
    ],
    ['network', "web only (HTTP and HTTPS through Codex's proxy): no SSH, no local ports, no server you start and connect to."],
  ];
  return [
    'THE FOLDERS YOU SEE (angelia guide layout)',
    '',
    wrap(
      `${ctx.stateDir ? `Angelia's state folder here is ${ctx.stateDir}.` : "<state> is Angelia's state folder (~/.angelia unless ANGELIA_STATE_DIR places it elsewhere)."} A blocked path gives "Permission denied", "Read-only file system" or "Operation not permitted": say so, and name the lasting fix (add the folder to add_dirs of your profile in Angelia).`,
    ),
    '',
    ...places.map(([p, d]) => `${p}\n${wrap(d, 100, '  ')}`),
  ].join('\n');
}

/** The text of `topic` for `ctx` (ends without a line break). */
export async function guideText(topic: GuideTopic, ctx: GuideContext): Promise<string> {
  switch (topic) {
    case 'api':
      return apiTopic(ctx);
    case 'commands':
      return commandsTopic();
    case 'profiles':
      return profilesTopic();
    case 'layout':
      return layoutTopic(ctx);
  }
}

const USAGE = `usage: angelia guide [${GUIDE_TOPICS.join(' | ')}]\n`;

/**
 * Runs `guide` with `argv` and `env`, writing to `out` / `err`; answers the exit code: 0 printed, 2 a
 * usage error or an unknown topic (the topics named).
 */
export async function runGuide(argv: string[], env: NodeJS.ProcessEnv, out: (t: string) => void, err: (t: string) => void): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} }));
  } catch (e) {
    err(`angelia guide: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (positionals.length > 1) {
    err(USAGE);
    return 2;
  }
  const asked = positionals[0];
  if (asked !== undefined && !(GUIDE_TOPICS as readonly string[]).includes(asked)) {
    err(`angelia guide: no topic "${asked}"; the topics: ${GUIDE_TOPICS.join(', ')}\n${USAGE}`);
    return 2;
  }
  const ctx = guideContext(env);
  const topics = asked === undefined ? [...GUIDE_TOPICS] : [asked as GuideTopic];
  const parts = await Promise.all(topics.map((t) => guideText(t, ctx)));
  const intro = asked === undefined ? `${wrap(`Angelia's manual for agents. Topics: ${GUIDE_TOPICS.join(', ')} (angelia guide <topic> prints one).`)}\n\n` : '';
  out(`${intro}${parts.join('\n\n')}\n`);
  return 0;
}

/** The `guide` command of the command table. */
export const guide: CliCommand = {
  summary: `the manual agents read (no token needed): guide [${GUIDE_TOPICS.join(' | ')}]`,
  exits: { 0: 'printed', 2: `usage error, or no such topic (the topics: ${GUIDE_TOPICS.join(', ')})` },
  options: [
    'api       how to reach Angelia from inside the sandbox: commands, channel, who may do what, refusals, exit codes',
    'commands  the commands an agent runs, with their options and exit codes',
    'profiles  the profile words (profile, chat, permission_mode, isolated, accept_from, …)',
    'layout    the folders an agent sees, and what is denied',
  ],
  run: (argv) =>
    runGuide(
      argv,
      process.env,
      (t) => void process.stdout.write(t),
      (t) => void process.stderr.write(t),
    ),
};
