/**
 * The approval Codex waits on but never sent (the ghost-approval watchdog, chats/watchdogs.ts): Codex's
 * `thread/status/changed` says `waitingOnApproval` for `ghostApprovalMs` while no request of this chat is
 * pending in the broker. What it waits on is named from the transcript (the command or file change its
 * turn left running: Codex starts the item before it asks), told in the chat and written to the audit log
 * (`never-sent`, approvals/audit.ts) like every other approval outcome. docs/architecture.md flow (c).
 */
import type { ChatItem } from '../../../shared/contract';
import type { AuditRecord } from '../approvals/audit';
import type { ChatInside } from './inside';
import { noticeText } from './notices';

/** What a turn waits on, as far as the transcript tells: its kind, a short title, and the command's text. */
export interface WaitingOn {
  kind: 'command' | 'fileChange' | 'unknown';
  /** "the command `ls`", "the change of a.txt, b.txt", or null when nothing is known. */
  title: string | null;
  command?: string;
}

/** Most characters of a command or path list named in the notice. */
const MAX_NAMED = 120;

const cut = (s: string): string => (s.length > MAX_NAMED ? `${s.slice(0, MAX_NAMED - 1)}…` : s);

/** The newest command or file change of `items` still running: what Codex waits to have approved (pure). */
export function waitingOn(items: readonly ChatItem[]): WaitingOn {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.type === 'turnEnd') break;
    if (it.type === 'command' && it.status === 'running') {
      const line = it.command.replace(/\s+/g, ' ').trim();
      return { kind: 'command', title: `the command \`${cut(line)}\``, command: it.command };
    }
    if (it.type === 'fileChange' && it.status === 'running') {
      const paths = it.changes.map((c) => c.path).join(', ');
      return { kind: 'fileChange', title: paths ? `the change of ${cut(paths)}` : 'a file change' };
    }
  }
  return { kind: 'unknown', title: null };
}

/** Tells the chat and the audit log that Codex waits on an approval it never sent (see the module comment). */
export function tellGhostApproval(c: ChatInside): void {
  const what = waitingOn(c.transcript.all());
  c.notice(noticeText({ code: 'ghost-approval', what: what.title }));
  c.setActivity(what.title ? `Waiting on an approval Codex never sent (${what.title})` : 'Waiting on an approval Codex never sent');
  const record: AuditRecord = {
    at: new Date().toISOString(),
    event: 'never-sent',
    chatId: c.deps.chatId,
    profile: c.deps.profile,
    kind: what.kind,
    ...(what.title ? { title: what.title } : {}),
    ...(what.command !== undefined ? { command: what.command } : {}),
  };
  try {
    c.deps.audit.append(record);
  } catch (e) {
    c.notice(`The audit log could not be written: ${e instanceof Error ? e.message : String(e)}`);
  }
}
