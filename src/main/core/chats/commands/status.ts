/**
 * `/status`: profile, session, Codex version, model and effort in force, queue and sandbox (../commands.ts
 * `statusText`), then the chat's tokens and context and the account's rate limits (usage/statusText.ts).
 */
import { statusText } from '../commands';
import { modePhrase } from '../mode';
import { usageStatusLines } from '../../usage/statusText';
import type { CommandContext } from './context';

/** The `/status` text of the chat now. */
export function statusLine(ctx: CommandContext): string {
  const row = ctx.sessions.active(ctx.chatId);
  const f = ctx.facts();
  const kept =
    f.enforcement === 'managed'
      ? 'managed by Codex under this profile'
      : f.enforcement === 'disabled'
        ? 'OFF (the table says sandbox = false)'
        : f.enforcement === 'external'
          ? 'external'
          : null;
  // Only a running process has a sandbox in force; a stopped one is described as it was when it last ran.
  const sandbox = !kept ? 'not started yet' : f.codexRunning ? kept : `none in force now (Codex is not running); it was ${kept} when it last ran`;
  const down =
    f.down === 'idle-exit'
      ? 'it exited after idle_exit_minutes; the next message starts it again'
      : f.down === 'crashed'
        ? 'it crashed; Restart or the next message starts it again'
        : null;
  const force = ctx.inForce(row);
  const mode = f.mode;
  const text = statusText({
    profile: ctx.profile,
    session: row,
    codexVersion: f.codexVersion,
    model: force.model,
    modelSource: force.modelSource,
    effort: force.effort,
    effortSource: force.effortSource,
    sandbox: mode.source === 'attested' || mode.permissionMode !== null ? `${sandbox}; ${modePhrase(mode)}` : sandbox,
    codexRunning: f.codexRunning,
    refusal: f.refusal,
    down,
    queued: f.queued,
    running: f.running,
    sessions: ctx.sessions.count(ctx.chatId),
  });
  return f.usage ? [text, ...usageStatusLines(f.usage.chat, f.usage.home)].join('\n') : text;
}
