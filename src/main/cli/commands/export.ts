/**
 * `angelia export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file>]`:
 * a chat's sessions as JSON Lines (seed-spec §4.12 rows) or Markdown, read through a short-lived
 * `codex app-server` with `thread/turns/list` (core/chats/export.ts), never from rollout files (B34).
 *
 * - `<chat>`: a chat id of the sessions store (`<state>/sessions.json`); the first chat of a profile is
 *   named after it. Default: the chat's active session; `--all`: every session, oldest first;
 *   `--session`: the one whose id (or thread id) starts with the given prefix (≥ 5 characters, unique).
 * - Output on stdout, or with `--out` written atomically with mode 600. Warnings (`warning: …`) on stderr.
 * - Codex is started with the profile's launch plan (same CODEX_HOME, flags, scrubbed environment;
 *   `planLaunch` refuses → nothing starts), recorded in `<state>/children.json`, answers every server
 *   request -32601 (CodexClient's default with no handler), and is always stopped. No turn, no model call.
 * - Exit 0 exported; 1 a thread could not be read (what could be read is still written) or Codex did
 *   not start; 2 usage, unknown chat or session, a chat with no sessions yet; 3 refused by the launch
 *   guard (as `angelia run`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { toAppError } from '../../../shared/result';
import { readSessionRows, toJsonl, toMarkdown, type ExportResult, type ExportSession } from '../../core/chats/export';
import { planLaunch } from '../../core/chats/launchPlan';
import { SessionStore, type SessionRow } from '../../core/chats/sessions';
import { checkVersion } from '../../core/codex/attest';
import { childTracker, childrenFile } from '../../core/codex/children';
import type { CodexClient } from '../../core/codex/client';
import { startCodexClient } from '../../core/codex/start';
import { resolveInstance, type InstancePaths } from '../../core/instance/paths';
import { loadAccepted } from '../../core/table/accepted';
import type { LoadedTable } from '../../core/table/load';
import { formatFailure } from '../../core/table/errors';
import type { CliCommand } from '../command';

const USAGE = 'usage: angelia export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file>]\n';

/** A failure as `run` prints it: message, where, fix on one line. */
function reasonOf(e: unknown): string {
  const err = toAppError(e);
  return `${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}`;
}

/** The session a `--session` prefix names: a unique, case-insensitive prefix (≥ 5 chars) of the row id or thread id. */
export function pickSession(rows: SessionRow[], prefix: string): { row: SessionRow } | { error: string } {
  const p = prefix.trim().toLowerCase();
  if (p.length < 5) return { error: `--session needs at least 5 characters of the session id (got "${prefix}")` };
  const hits = rows.filter((r) => r.id.toLowerCase().startsWith(p) || (r.threadId ?? '').toLowerCase().startsWith(p));
  if (hits.length === 1 && hits[0]) return { row: hits[0] };
  const known = rows.map((r) => `${r.id.slice(0, 8)}${r.label ? ` (${r.label})` : ''}`).join(', ') || '(none)';
  return { error: hits.length ? `--session "${prefix}" matches ${hits.length} sessions: give more of the id (sessions: ${known})` : `no session of this chat starts with "${prefix}" (sessions: ${known})` };
}

/** The accepted table, or null when it does not load (only used to tell a profile without sessions from a typo). */
async function tableOrNull(paths: InstancePaths): Promise<LoadedTable | null> {
  try {
    return (await loadAccepted(paths, { home: paths.home, env: process.env })).table;
  } catch {
    return null;
  }
}

export const exportCommand: CliCommand = {
  summary: 'export a chat\'s sessions: export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file>]',
  async run(argv) {
    let values: { all?: boolean; session?: string; format?: string; tools?: boolean; out?: string };
    let positionals: string[];
    try {
      ({ values, positionals } = parseArgs({
        args: argv, allowPositionals: true, strict: true,
        options: { all: { type: 'boolean' }, session: { type: 'string' }, format: { type: 'string' }, tools: { type: 'boolean' }, out: { type: 'string' } },
      }));
    } catch (e) {
      process.stderr.write(`export: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
      return 2;
    }
    const format = values.format ?? 'jsonl';
    const usage = (msg: string): number => (process.stderr.write(`export: ${msg}\n${USAGE}`), 2);
    if (positionals.length !== 1 || !positionals[0]) return usage('name exactly one chat');
    if (format !== 'jsonl' && format !== 'md') return usage(`--format must be jsonl or md (got "${format}")`);
    if (values.all && values.session !== undefined) return usage('--all and --session exclude each other');
    if (values.out === '') return usage('--out needs a file name');
    const chatId = positionals[0];

    const paths = resolveInstance(process.env);
    let store: SessionStore;
    try {
      store = new SessionStore(paths.sessionsFile);
    } catch (e) {
      process.stderr.write(`angelia: ${formatFailure(e)}\n`);
      return 1;
    }
    const chat = store.chats().find((c) => c.chatId === chatId);
    const history = chat ? store.list(chatId, Math.max(1, store.count(chatId))) : [];
    if (!chat || !history.length) {
      const table = chat ? null : await tableOrNull(paths);
      if (chat || table?.profiles[chatId]) {
        process.stderr.write(`angelia: the chat "${chatId}" has no sessions yet: nothing to export. Send it a message first (angelia run ${chat?.profile ?? chatId} "…").\n`);
        return 2;
      }
      const known = store.chats().map((c) => c.chatId);
      process.stderr.write(`angelia: no chat named "${chatId}" in ${paths.sessionsFile}. Known chats: ${known.join(', ') || '(none yet: send a message in a chat first)'}.\n`);
      return 2;
    }

    let picked: SessionRow[];
    if (values.all) picked = [...history].reverse();
    else if (values.session !== undefined) {
      const hit = pickSession(history, values.session);
      if ('error' in hit) {
        process.stderr.write(`angelia: ${hit.error}; chat "${chatId}" in ${paths.sessionsFile}\n`);
        return 2;
      }
      picked = [hit.row];
    } else picked = [store.active(chatId) ?? history[0] as SessionRow];
    // A row is materialized only once a turn started on it (B22): before that its thread has no history.
    const sessions: ExportSession[] = picked.map((r) => ({ id: r.id, threadId: r.started ? r.threadId : null, label: r.label }));
    const meta = { chat: chatId, profile: chat.profile };

    let result: ExportResult;
    if (sessions.some((s) => s.threadId)) {
      let plan: Awaited<ReturnType<typeof planLaunch>>;
      try {
        const { table } = await loadAccepted(paths, { home: paths.home, env: process.env });
        plan = await planLaunch({ table, profile: chat.profile, chatId, paths, env: process.env });
      } catch (e) {
        process.stderr.write(`angelia: ${reasonOf(e)}\n`);
        return 3;
      }
      let conn: CodexClient;
      try {
        conn = await startCodexClient({ ...plan.spawn, track: childTracker(childrenFile(paths.stateDir), { chatId, bin: plan.spawn.bin }) });
      } catch (e) {
        process.stderr.write(`angelia: Codex did not start: ${reasonOf(e)}\n`);
        return 1;
      }
      // Ctrl-C (or TERM) stops Codex before leaving, so no process outlives the export.
      const onSignal = (sig: NodeJS.Signals): void => {
        process.stderr.write(`angelia: ${sig}: stopping Codex\n`);
        void conn.stop().finally(() => process.exit(130));
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const version = checkVersion(conn.version);
        if (version.length) {
          process.stderr.write(`angelia: ${version.join(' ')}\n`);
          return 3;
        }
        result = await readSessionRows(conn, sessions, meta, { tools: values.tools === true });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await conn.stop();
      }
    } else {
      result = await readSessionRows(null, sessions, meta, { tools: values.tools === true });
    }

    const text = format === 'md' ? toMarkdown(result.rows, { ...meta, sessions }) : toJsonl(result.rows);
    for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
    if (values.out !== undefined) {
      const file = resolve(values.out);
      try {
        await writeFileAtomic(file, text, { mode: 0o600 });
      } catch (e) {
        process.stderr.write(`angelia: cannot write ${file}: ${(e as Error).message}. Pick a folder you can write (--out).\n`);
        return 1;
      }
      process.stderr.write(`exported ${result.rows.length} rows from ${sessions.length} session${sessions.length === 1 ? '' : 's'} to ${file}\n`);
    } else process.stdout.write(text);
    return result.failed.length ? 1 : 0;
  },
};
