/**
 * `angelia export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file> [--force]]`:
 * a chat's sessions as JSON Lines (README "Export" rows) or Markdown, read through a short-lived
 * `codex app-server` with `thread/turns/list` (core/chats/export.ts), never from rollout files.
 *
 * - `<chat>`: a chat id of the sessions store (`<state>/private/sessions.json`); the first chat of a profile is
 *   named after it. Default: the chat's active session; `--all`: every session, oldest first (by the
 *   time it was made), turns oldest first; `--session`: the one whose id (or thread id) starts or ends
 *   with the given text (≥ 5 characters, unique; the short id `…c7f1a3d8` shown by `/resume` works).
 * - Output on stdout, or with `--out` written atomically with mode 600. `--out` refuses an existing file
 *   unless `--force`, and always refuses a path inside the state folder, the table file or CODEX_HOME
 *   (symlinks resolved: the real path of the folder, and of the file when it is a link). Checked
 *   before Codex starts. Warnings (`warning: …`) and notes (`note: …`, e.g. a session with no turns
 *   yet) on stderr. A session with no turns gives its heading and "No turns yet" in Markdown and no
 *   row in JSON Lines (every line stays an export row), with the note.
 * - Codex is started with the profile's launch plan (same CODEX_HOME, flags, scrubbed environment;
 *   `planLaunch` refuses → nothing starts), recorded in `<state>/private/children.json`, answers every server
 *   request -32601 (CodexClient's default with no handler), and is always stopped. No turn, no model call.
 * - Exit 0 exported; 1 a thread could not be read (what could be read is still written), Codex did
 *   not start, or the file could not be written; 2 usage (including a refused `--out`), unknown chat or
 *   session, a chat with no sessions yet; 3 refused to start: by the launch guard, or because
 *   `sessions.json` does not load (as `angelia run` and `angelia serve`; the message names the file, the
 *   field and how to restore the `.bak`), or because the private files of an older layout cannot be
 *   moved into `<state>/private/` (instance/migrate.ts: an old and a new copy both exist).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { toAppError } from '../../../shared/result';
import { readSessionRows, toJsonl, toMarkdown, type ExportResult, type ExportSession } from '../../core/chats/export';
import { planLaunch } from '../../core/launch/plan';
import { findSession, SessionStore, shortId, type SessionRow } from '../../core/chats/sessions';
import { gateVersion } from '../../core/codex/session';
import { childTracker } from '../../core/codex/children';
import type { CodexClient } from '../../core/codex/client';
import { startCodexClient } from '../../core/codex/start';
import { migratePrivateFiles } from '../../core/instance/migrate';
import { isWithin, resolveInstance, type InstancePaths } from '../../core/instance/paths';
import { loadAccepted } from '../../core/table/accepted';
import type { LoadedTable } from '../../core/table/load';
import type { CliCommand } from '../command';

const USAGE = 'usage: angelia export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file> [--force]]\n';

/** A failure as `run` prints it: message, where, fix on one line. */
function reasonOf(e: unknown): string {
  const err = toAppError(e);
  return `${err.message}${err.where ? ` (${err.where})` : ''}${err.fix ? ` Fix: ${err.fix}` : ''}`;
}

/**
 * The session `--session <sel>` names (`findSession`): the start or the end (≥ 5 characters, a leading
 * `…` ignored) of the row id or thread id, case-insensitive, matching exactly one row. The error names
 * the sessions, and a real one as the example.
 */
export function pickSession(rows: SessionRow[], selector: string): { row: SessionRow } | { error: string } {
  return findSession(rows, selector, { how: '--session' });
}

/** The real path of `p` when it exists, else `p` resolved. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/**
 * Checks an `--out` path before anything runs. Returns the absolute file to write, or an error with its
 * exit code: 2 when the path is refused — inside the state folder, the table file, or inside CODEX_HOME
 * (always: Angelia's own files; judged on the real path of the folder, and of the file itself when it is
 * a symlink, since the atomic write follows a link), an existing file without `force`, a folder — and 1
 * when its folder does not exist. A file replaced between this check and the write is not caught.
 */
export function checkOut(out: string, opts: { force: boolean; paths: InstancePaths; cwd?: string }): { file: string } | { error: string; code: 1 | 2 } {
  const file = resolve(opts.cwd ?? process.cwd(), out);
  let folder: string;
  try {
    folder = realpathSync(dirname(file));
  } catch {
    return { error: `cannot write ${file}: the folder ${dirname(file)} does not exist. Create it, or pick another --out.`, code: 1 };
  }
  let target = join(folder, basename(file));
  let exists = false;
  try {
    const st = lstatSync(target);
    exists = true;
    if (st.isSymbolicLink()) target = real(target);
    else if (st.isDirectory()) return { error: `--out ${file} is a folder: name a file (e.g. --out ${join(file, 'export.jsonl')}).`, code: 2 };
  } catch {
    /* no such file: a new one */
  }
  const p = opts.paths;
  const areas: Array<{ path: string; what: string; folder: boolean }> = [
    { path: p.stateDir, what: `Angelia's state folder ${p.stateDir}`, folder: true },
    { path: p.tableFile, what: `the table ${p.tableFile}`, folder: false },
    { path: p.codexHome, what: `CODEX_HOME ${p.codexHome}`, folder: true },
  ];
  for (const area of areas) {
    const inside = [resolve(area.path), real(area.path)].some((a) => (area.folder ? isWithin(target, a) || isWithin(file, a) : target === a || file === a));
    if (inside) {
      const via = target !== file ? ` (it resolves to ${target})` : '';
      return {
        error: `--out ${file}${via} is ${area.folder ? 'inside ' : ''}${area.what}: exporting there could overwrite Angelia's own files, so it is refused even with --force. Write outside it, e.g. --out ${join(p.home, basename(file))}.`,
        code: 2,
      };
    }
  }
  if (exists && !opts.force)
    return {
      error: `--out ${file} already exists${target !== file ? ` (a link to ${target})` : ''}: add --force to replace it, or pick another file name.`,
      code: 2,
    };
  return { file };
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
  summary: "export a chat's sessions: export <chat> [--all | --session <id>] [--format jsonl|md] [--tools] [--out <file> [--force]]",
  options: [
    '--all            every session of the chat, oldest first (default: the active session)',
    '--session <id>   one session, by the start or the end of its id (at least 5 characters)',
    '--format jsonl|md  JSON Lines (default) or Markdown',
    '--tools          add a row per tool call (a command with its output, a file change with its diff)',
    '--out <file>     write the file (atomically, mode 600) instead of printing; refuses an existing file,',
    '                 and always a path inside the state folder, the table or CODEX_HOME',
    '--force          with --out: replace an existing file',
  ],
  exits: {
    0: 'exported',
    1: 'a thread could not be read (the rest is still written), Codex did not start, or the file could not be written',
    2: 'usage error (a refused --out too), an unknown chat or session, or no sessions yet',
    3: 'the start was refused (the launch guard, a sessions.json that does not load, or a private file of an older layout found both at the top of the state folder and in private/)',
  },
  async run(argv) {
    let values: { all?: boolean; session?: string; format?: string; tools?: boolean; out?: string; force?: boolean };
    let positionals: string[];
    try {
      ({ values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
          all: { type: 'boolean' },
          session: { type: 'string' },
          format: { type: 'string' },
          tools: { type: 'boolean' },
          out: { type: 'string' },
          force: { type: 'boolean' },
        },
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
    if (values.force && values.out === undefined) return usage('--force only goes with --out <file>');
    const chatId = positionals[0];

    const paths = resolveInstance(process.env);
    let outFile: string | null = null;
    if (values.out !== undefined) {
      const checked = checkOut(values.out, { force: values.force === true, paths });
      if ('error' in checked) {
        process.stderr.write(`angelia: ${checked.error}\n`);
        return checked.code;
      }
      outFile = checked.file;
    }
    let store: SessionStore;
    try {
      migratePrivateFiles(paths);
      store = new SessionStore(paths.sessionsFile);
    } catch (e) {
      process.stderr.write(`angelia: ${reasonOf(e)}\n`);
      return 3;
    }
    const chat = store.chats().find((c) => c.chatId === chatId);
    const history = chat ? store.list(chatId, Math.max(1, store.count(chatId))) : [];
    if (!chat || !history.length) {
      const table = chat ? null : await tableOrNull(paths);
      if (chat || table?.profiles[chatId]) {
        process.stderr.write(
          `angelia: the chat "${chatId}" has no sessions yet: nothing to export. Send it a message first (angelia run ${chat?.profile ?? chatId} "…").\n`,
        );
        return 2;
      }
      const known = store.chats().map((c) => c.chatId);
      process.stderr.write(
        `angelia: no chat named "${chatId}" in ${paths.sessionsFile}. Known chats: ${known.join(', ') || '(none yet: send a message in a chat first)'}.\n`,
      );
      return 2;
    }

    let picked: SessionRow[];
    if (values.all) picked = store.history(chatId);
    else if (values.session !== undefined) {
      const hit = pickSession(history, values.session);
      if ('error' in hit) {
        process.stderr.write(`angelia: chat "${chatId}" (${paths.sessionsFile}): ${hit.error}\n`);
        return 2;
      }
      picked = [hit.row];
    } else picked = [store.active(chatId) ?? (history[0] as SessionRow)];
    // A row is materialized only once a turn started on it: before that its thread has no history.
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
        conn = await startCodexClient({ ...plan.spawn, track: childTracker(paths.childrenFile, { chatId, bin: plan.spawn.bin }) });
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
        try {
          gateVersion(conn);
        } catch (e) {
          // The version gate's AppFailure `refused`: its message is the reasons (codex/session.ts).
          process.stderr.write(`angelia: ${(e as Error).message}\n`);
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
    for (const n of result.notes) process.stderr.write(`note: ${n}\n`);
    const others = history.filter((r) => r.started && !picked.some((p) => p.id === r.id));
    if (result.notes.length && !result.rows.length && others[0]) {
      process.stderr.write(
        `note: other sessions of "${chatId}" have turns: --all, or --session ${shortId(
          others[0].id,
          history.map((r) => r.id),
        ).replace(/^…/, '')}${others[0].label ? ` ("${others[0].label}")` : ''}\n`,
      );
    }
    if (outFile !== null) {
      const file = outFile;
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
