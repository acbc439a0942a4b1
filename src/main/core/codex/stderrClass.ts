/**
 * Reading a Codex process's stderr for the one thing a person needs when it died: the cause. Measured with
 * codex-cli 0.169.0 on Linux, stderr (ANSI colours already stripped, see `StderrRing.tail`) mixes:
 * - tracing log lines: `2026-11-30T19:26:47.284641Z  WARN codex_app_server: …` (levels TRACE…ERROR);
 * - warnings outside tracing: `WARNING: proceeding, even though we could not create PATH aliases: …`;
 * - bubblewrap notices, e.g. the ERROR log line "Codex could not find bubblewrap on PATH …" printed at
 *   every start on hosts without a system bwrap (harmless: the bundled one is used);
 * - a fatal error: `Error: <message>`, sometimes continued on the next line (`in \`model_reasoning_effort\``)
 *   or by an anyhow `Caused by:` block, then a blank line and a `Stack backtrace:` block of indented frames;
 * - a Rust panic: `thread '<name>' panicked at <file>:<line>:<col>:` with the message on the next line.
 * Measured with 0.171.0: a log line's message may go on over indented lines, e.g. the ERROR line printed at
 * every start in a folder with a `.codex/` of its own ("Project-local config, hooks, and exec policies are
 * disabled in the following folders until the project is trusted, …", then "    1. <folder>/.codex" and
 * "       To load project-local config, …, add <folder> as a trusted project in <CODEX_HOME>/config.toml.").
 * Such lines continue their log line (same kind and level, `continuation`), and that start-up notice is
 * routine (`notice`): neither is ever a crash's cause (docs/architecture.md "Crashes").
 */

/** What a stderr line is. */
export type StderrKind = 'fatal' | 'log' | 'warning' | 'sandbox' | 'notice' | 'backtrace' | 'other';

/** Tracing levels of Codex's log lines. */
export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/**
 * One classified line; `level` is set for tracing log lines (kinds `log`, `warning`, `sandbox` and `notice`).
 * `continuation`: an indented line that goes on with the log line before it (it takes that line's kind and level).
 */
export interface StderrLine {
  text: string;
  kind: StderrKind;
  level?: LogLevel;
  continuation?: true;
}

/** Most lines of a cause after its `Error:` or panic line (continuation, `Caused by:` and its items). */
const MAX_CONTINUATION = 3;

const TRACING = /^\s*(?:\d{4}-\d\d-\d\dT[\d:.]+Z?\s+)?(TRACE|DEBUG|INFO|WARN|ERROR)\s/;
const FATAL = /^(?:Error: |thread '[^']*' panicked at )/;
const WARNING = /^warning:/i;
const SANDBOX = /^bwrap: |bubblewrap/i;
/** Routine start-up notices Codex logs at ERROR level although nothing failed (0.171.0, see the module comment). */
const STARTUP_NOTICE = /Project-local config, hooks, and exec policies are disabled|as a trusted project in /;
/** Kinds of log lines whose message may go on over indented lines. */
const CONTINUED: ReadonlySet<StderrKind> = new Set(['log', 'warning', 'sandbox', 'notice']);
const BACKTRACE_HEAD = /^(?:Stack backtrace:|stack backtrace:)\s*$/;
const BACKTRACE_NOTE = /^note: (?:run with `RUST_BACKTRACE|Some details are omitted)/;
const CAUSED_BY = /^Caused by:\s*$/;

/**
 * Classifies each non-empty line of `text` (split on `\n`, trailing `\r` dropped). Indented lines right
 * after a `Stack backtrace:` header are frames (`backtrace`); indented lines under `Caused by:` are `other`;
 * indented lines after a log line continue it (its kind and level, `continuation`).
 */
export function classifyStderr(text: string): StderrLine[] {
  const out: StderrLine[] = [];
  let inBacktrace = false;
  let head: StderrLine | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim().length === 0) continue;
    const indented = /^\s/.test(line);
    if (inBacktrace && indented) {
      out.push({ text: line, kind: 'backtrace' });
      continue;
    }
    if (head && indented && !TRACING.test(line)) {
      out.push({ text: line, kind: head.kind, ...(head.level ? { level: head.level } : {}), continuation: true });
      continue;
    }
    inBacktrace = BACKTRACE_HEAD.test(line);
    const classified = classifyLine(line);
    head = CONTINUED.has(classified.kind) ? classified : null;
    out.push(classified);
  }
  return out;
}

function classifyLine(text: string): StderrLine {
  if (BACKTRACE_HEAD.test(text) || BACKTRACE_NOTE.test(text)) return { text, kind: 'backtrace' };
  const log = TRACING.exec(text);
  if (log) {
    const level = log[1] as LogLevel;
    if (SANDBOX.test(text)) return { text, kind: 'sandbox', level };
    if (STARTUP_NOTICE.test(text)) return { text, kind: 'notice', level };
    return { text, kind: level === 'WARN' ? 'warning' : 'log', level };
  }
  if (FATAL.test(text)) return { text, kind: 'fatal' };
  if (WARNING.test(text)) return { text, kind: 'warning' };
  if (SANDBOX.test(text)) return { text, kind: 'sandbox' };
  return { text, kind: 'other' };
}

/**
 * The cause to show when a Codex process died, from its stderr text (ANSI codes already removed), or null
 * when stderr says nothing that could be one. In order: the last fatal line (`Error: …` or a Rust panic)
 * with up to 3 continuation lines (plain lines right after it, or a `Caused by:` block); else the last
 * plain line that is no log, warning, bubblewrap notice, backtrace or continuation of a log line; else the
 * last ERROR log line that is no bubblewrap or start-up notice (its first line). Warnings, INFO/DEBUG/TRACE
 * logs, bubblewrap and start-up notices, the lines that continue them, and backtraces are never causes.
 * Lines are joined with `\n`.
 */
export function stderrCause(text: string): string | null {
  const lines = classifyStderr(text);
  const fatal = lines.findLastIndex((l) => l.kind === 'fatal');
  if (fatal !== -1) {
    const cause = [lines[fatal]!.text];
    for (let i = fatal + 1; i < lines.length && cause.length <= MAX_CONTINUATION; i++) {
      const l = lines[i]!;
      if (l.kind !== 'other') break;
      cause.push(CAUSED_BY.test(l.text) ? l.text : l.text.trim());
    }
    return cause.join('\n');
  }
  const plain = lines.findLast((l) => l.kind === 'other');
  if (plain) return plain.text;
  return lines.findLast((l) => l.kind === 'log' && l.level === 'ERROR' && !l.continuation)?.text ?? null;
}

/**
 * The cause of an exit: `exit.cause` when the launcher computed it from the whole stderr it kept, else
 * `stderrCause(exit.stderrTail)`.
 */
export function exitCause(exit: { stderrTail: string; cause?: string | null }): string | null {
  return exit.cause !== undefined ? exit.cause : stderrCause(exit.stderrTail);
}
