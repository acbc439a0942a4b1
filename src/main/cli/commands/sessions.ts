/**
 * `angelia sessions <chat> [--json] [--archived] [--search <text>]` and `--rename <session> <name>`,
 * `--archive <session>`, `--unarchive <session>`: a chat's past sessions, found, named and archived
 * (core/sessions/catalog.ts; docs/architecture.md "Sessions"). STABLE interface (scripts rely on it):
 * - `--json` prints ONE JSON array, newest first: `[{"id","name","preview","createdAt","updatedAt",
 *   "archived"}]` (`id` the Codex thread id; `name` and `preview` a string or null; dates ISO 8601);
 *   without `--archived` archived sessions are left out, with it only they are listed; `--search` keeps
 *   the sessions whose name or any message contains the text (case-insensitive). Without `--json`: a table.
 * - a session is named by its id, or the start or end of it as `/resume` takes it (chats/sessions.ts
 *   `findSession`).
 * - exit 0 done; 1 Codex did not start or refused the change; 2 usage, an unknown chat or session;
 *   3 refused to start (a `sessions.json` that does not load, a Codex version refused).
 * Works whether Angelia runs or not: it reads `<state>/private/sessions.json` and Codex's record on a
 * short-lived app-server of its own (core/sessions/connect.ts), stopped before it exits.
 */
import { parseArgs } from 'node:util';
import { toAppError } from '../../../shared/result';
import { shortDate, type SessionSummary } from '../../../shared/sessions';
import { SessionStore, shortId } from '../../core/chats/sessions';
import { SessionCatalog } from '../../core/sessions/catalog';
import { sessionsConnect } from '../../core/sessions/connect';
import { startCodexClient } from '../../core/codex/start';
import { migratePrivateFiles } from '../../core/instance/migrate';
import { resolveInstance } from '../../core/instance/paths';
import { loadAccepted } from '../../core/table/accepted';
import type { CliCommand } from '../command';
import { isUnknownName } from '../exit';
import { terminalLine } from '../terminalText';

const USAGE =
  'usage: angelia sessions <chat> [--json] [--archived] [--search <text>]\n' +
  '       angelia sessions <chat> --rename <session> <name> | --archive <session> | --unarchive <session>\n';

/** The stable JSON row of `--json` (exactly these keys, in this order). */
export function jsonRow(s: SessionSummary): {
  id: string;
  name: string | null;
  preview: string | null;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
} {
  return { id: s.id, name: s.name, preview: s.preview, createdAt: s.createdAt, updatedAt: s.updatedAt, archived: s.archived };
}

/**
 * One line of text: whitespace runs as one space, control and invisible characters escaped
 * (terminalText.ts `terminalLine`: names and messages come from agents), cut to `max` characters with `…`.
 */
function oneLine(s: string | null, max: number): string {
  const t = terminalLine((s ?? '').replace(/\s+/g, ' ').trim());
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/**
 * The readable table: the short id (as `/resume` shows it), created and updated (local time), turns, and
 * the name (quoted) or else the first message; `*` marks the chat's current session. Pure.
 */
export function sessionsTable(rows: readonly SessionSummary[]): string {
  if (!rows.length) return 'no sessions\n';
  const ids = rows.map((r) => r.id);
  const cells = rows.map((r) => [
    `${r.active ? '*' : ' '}${shortId(r.id, ids)}`,
    shortDate(r.createdAt),
    shortDate(r.updatedAt),
    String(r.turns),
    r.name ? `"${oneLine(r.name, 60)}"${r.preview ? ` · ${oneLine(r.preview, 50)}` : ''}` : oneLine(r.preview, 80) || '(no message)',
  ]);
  const head = [' SESSION', 'CREATED', 'UPDATED', 'TURNS', 'NAME · FIRST MESSAGE'];
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]): string =>
    c
      .map((v, i) => (i === c.length - 1 ? v : v.padEnd(width[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[head, ...cells].map(line).join('\n')}\n`;
}

export const sessions: CliCommand = {
  summary: "list, search, rename and archive a chat's sessions: sessions <chat> [--json] [--archived] [--search <text>]",
  options: [
    '--json                  one JSON array, newest first: [{id, name, preview, createdAt, updatedAt, archived}]',
    '--archived              only the archived sessions (without it they are left out)',
    '--search <text>         only sessions whose name or any message contains the text (case-insensitive)',
    '--rename <session> <name>  name a session (the session by its id, or the start or end of it)',
    '--archive <session>     archive a session (its chat starts a new one when it was the current)',
    '--unarchive <session>   bring an archived session back',
  ],
  exits: {
    0: 'listed, or the session changed',
    1: 'Codex did not start, or refused the change (the reason on stderr)',
    2: 'usage error, or an unknown chat or session',
    3: 'refused to start (a sessions.json that does not load, a Codex version refused)',
  },
  async run(argv) {
    let values: { json?: boolean; archived?: boolean; search?: string; rename?: string; archive?: string; unarchive?: string };
    let positionals: string[];
    try {
      ({ values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
          json: { type: 'boolean' },
          archived: { type: 'boolean' },
          search: { type: 'string' },
          rename: { type: 'string' },
          archive: { type: 'string' },
          unarchive: { type: 'string' },
        },
      }));
    } catch (e) {
      process.stderr.write(`sessions: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
      return 2;
    }
    const usage = (msg: string): number => (process.stderr.write(`sessions: ${msg}\n${USAGE}`), 2);
    const [chatId, ...rest] = positionals;
    if (!chatId) return usage('name a chat');
    const changes = [values.rename, values.archive, values.unarchive].filter((v) => v !== undefined).length;
    if (changes > 1) return usage('--rename, --archive and --unarchive exclude each other');
    if (changes && (values.archived || values.search !== undefined)) return usage('--archived and --search only go with a listing');
    const name = rest.join(' ').trim();
    if (values.rename !== undefined && !name) return usage('--rename <session> <name>: give the name');
    if (values.rename === undefined && rest.length) return usage(`unexpected ${JSON.stringify(rest.join(' '))}`);
    if (values.search !== undefined && !values.search.trim()) return usage('--search needs a text');

    const paths = resolveInstance(process.env);
    let store: SessionStore;
    try {
      migratePrivateFiles(paths);
      store = new SessionStore(paths.sessionsFile);
    } catch (e) {
      const err = toAppError(e);
      process.stderr.write(`angelia: ${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}\n`);
      return 3;
    }
    // A profile's first chat exists before its first session: an empty list, not an unknown name.
    const profiles = store.chats().some((c) => c.chatId === chatId)
      ? {}
      : await loadAccepted(paths, { home: paths.home, env: process.env }).then(
          (a) => a.table.profiles,
          () => ({}),
        );
    const catalog = new SessionCatalog({
      store,
      chatExists: (id) => Object.hasOwn(profiles, id),
      connect: sessionsConnect({ codexHome: paths.codexHome, env: process.env, childrenFile: paths.childrenFile, start: startCodexClient }),
    });
    try {
      if (changes) {
        const session = (values.rename ?? values.archive ?? values.unarchive) as string;
        const ref = { chatId, session };
        const done = values.rename !== undefined ? await catalog.rename(ref, name) : await catalog.setArchived(ref, values.archive !== undefined);
        const what = values.rename !== undefined ? `renamed to "${done.name ?? name}"` : values.archive !== undefined ? 'archived' : 'unarchived';
        if (values.json) process.stdout.write(`${JSON.stringify(jsonRow(done))}\n`);
        else process.stdout.write(`${shortId(done.id)} ${what}\n`);
        return 0;
      }
      const archived = values.archived === true;
      let rows = await catalog.all(chatId, archived);
      if (values.search !== undefined) {
        const found = await catalog.search({ text: values.search, chatId, archived });
        const ids = new Set(found.hits.map((h) => h.session.id));
        rows = rows.filter((r) => ids.has(r.id));
      }
      process.stdout.write(values.json ? `${JSON.stringify(rows.map(jsonRow))}\n` : sessionsTable(rows));
      return 0;
    } catch (e) {
      const err = toAppError(e);
      process.stderr.write(`angelia sessions: ${err.message}${err.fix ? ` (${err.fix})` : ''}\n`);
      if (isUnknownName(e)) return 2;
      return err.code === 'refused' ? 3 : 1;
    }
  },
};
