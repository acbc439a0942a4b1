/** `/export`: the active session as Markdown in the exports folder (file mode 600, folder 700), read from Codex's record (../export.ts). */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../instance/atomic';
import { exportFileName, readSessionRows, toMarkdown } from '../export';
import type { CommandContext } from './context';

export async function exportCommand(ctx: CommandContext): Promise<void> {
  const row = ctx.sessions.active(ctx.chatId);
  if (!row?.threadId || !row.started) return ctx.notice('Nothing to export yet: this session has no turns.');
  const conn = await ctx.liveConnection();
  if (!conn) return;
  const sessions = [{ id: row.id, threadId: row.threadId, label: row.label }];
  const meta = { chat: ctx.chatId, profile: ctx.profile };
  const { rows, warnings } = await readSessionRows(conn, sessions, meta, { tools: true });
  await mkdir(ctx.exportDir, { recursive: true, mode: 0o700 });
  const file = join(ctx.exportDir, exportFileName(ctx.chatId, row.id));
  // atomicWrite: a failed write names the file and why (the disk is full, the folder not writable).
  await atomicWrite(file, toMarkdown(rows, { ...meta, sessions }), { mode: 0o600 });
  ctx.notice(`Exported ${rows.length} rows to ${file}${warnings.length ? `\n${warnings.join('\n')}` : ''}`);
}
