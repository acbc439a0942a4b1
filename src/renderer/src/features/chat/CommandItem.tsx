/**
 * A command the agent ran: the command, its folder, live output (long output shows its tail; the full
 * text stays in the core), exit code and status. A failed command whose output says the sandbox refused
 * a path ("Permission denied", "Operation not permitted", "Read-only file system") offers to add that
 * folder to the chat's profile, unless it is Angelia's private state or a Codex home (then it says so). Also the file-change item with its diffs. While an approval for the
 * item is pending it shows "waiting for approval" (no caret), not "running": Codex announces the item
 * before it asks (approvals/describe.ts `shownItemStatus`).
 */
import { useMemo, type ReactElement } from 'react';
import type { ChatItem } from '../../../../shared/contract';
import { useAppStore } from '../../store/store';
import { approvalForItem, shownItemStatus, type ShownItemStatus } from '../approvals/describe';
import { Diff } from '../../ui/Diff';
import { folderToOffer, privateFolder, type PrivatePlaces } from '../profiles/addFolder';
import { AddFolderLink } from '../profiles/AddFolderLink';

/** Output longer than this shows only its last part. */
export const OUTPUT_DISPLAY_LIMIT = 20_000;

/** The shown part of an output and how many characters were left out. */
export function displayTail(output: string, limit = OUTPUT_DISPLAY_LIMIT): { text: string; hidden: number } {
  if (output.length <= limit) return { text: output, hidden: 0 };
  return { text: output.slice(output.length - limit), hidden: output.length - limit };
}

/** The badge of each shown status. */
export const STATUS_LABEL: Record<ShownItemStatus, string> = {
  running: 'running',
  waiting: 'waiting for approval',
  completed: 'done',
  failed: 'failed',
  declined: 'declined',
  interrupted: 'interrupted',
};

/** The item's status as shown: only a running item looks for an approval that names it (the store's approvals). */
function useShownStatus(item: { id: string; status: CommandChatItem['status'] }): ShownItemStatus {
  const approval = useAppStore((s) => (item.status === 'running' ? approvalForItem(Object.values(s.approvals.byId), item.id) : undefined));
  return shownItemStatus(item.status, approval);
}

type CommandChatItem = Extract<ChatItem, { type: 'command' }>;

/** True when the command ended badly (failed, or a non-zero exit code). */
export const commandFailed = (item: Pick<CommandChatItem, 'status' | 'exitCode'>): boolean =>
  item.status === 'failed' || (item.exitCode !== null && item.exitCode !== 0);

function RefusedFolder({ item, chatId }: { item: CommandChatItem; chatId: string }): ReactElement | null {
  const profileName = useAppStore((s) => s.chats.byId[chatId]?.profile);
  const profile = useAppStore((s) => (profileName ? s.chats.profiles[profileName] : undefined));
  const places = useAppStore((s) => s.chats.privatePlaces);
  const folder = useMemo(() => folderToOffer(item.output, item.cwd, profile), [item.output, item.cwd, profile]);
  if (!folder || !profileName) return null;
  return <RefusedFolderView folder={folder} profile={profileName} places={places} />;
}

/**
 * "The sandbox refused it." with the link adding `folder` to `profile`; for Angelia's private state or a
 * Codex home (`places`, from `app:info`) no link (no profile can be given it) but why, in one sentence.
 */
export function RefusedFolderView({ folder, profile, places }: { folder: string; profile: string; places: PrivatePlaces | null | undefined }): ReactElement {
  const closed = privateFolder(folder, places);
  return (
    <div className="add-folders" data-testid="add-folders">
      <span className="meta">The sandbox refused it.</span>
      {closed ? (
        <span className="meta" data-testid="private-folder">
          {closed}
        </span>
      ) : (
        <AddFolderLink profile={profile} folder={folder} />
      )}
    </div>
  );
}

/** A command item of chat `chatId`, shown with the status `useShownStatus` gives it. */
export function CommandItem({ item, chatId }: { item: CommandChatItem; chatId: string }): ReactElement {
  return <CommandItemView item={item} chatId={chatId} status={useShownStatus(item)} />;
}

/** A command item shown with `status` ("waiting for approval" while its approval is pending; no caret then). */
export function CommandItemView({ item, chatId, status }: { item: CommandChatItem; chatId: string; status: ShownItemStatus }): ReactElement {
  const { text, hidden } = displayTail(item.output);
  return (
    <div className={`command status-${status}`} data-testid="command-item" data-status={status}>
      <div className="command-head">
        <code className="command-line">
          <span className="prompt">$ </span>
          {item.command}
        </code>
        <span className={`badge cmd-${status}`} data-testid="command-status">
          {STATUS_LABEL[status]}
        </span>
      </div>
      <div className="meta">
        in <code>{item.cwd}</code>
      </div>
      {(text.length > 0 || status === 'running') && (
        <pre className="command-output" data-testid="command-output">
          {hidden > 0 && (
            <span className="meta">
              … {hidden.toLocaleString()} earlier characters not shown{'\n'}
            </span>
          )}
          {text}
          {status === 'running' && <span className="caret" />}
        </pre>
      )}
      {item.exitCode !== null && (
        <div className={`exit ${item.exitCode === 0 ? 'exit-ok' : 'exit-bad'}`} data-testid="command-exit">
          exit code {item.exitCode}
        </div>
      )}
      {commandFailed(item) && <RefusedFolder item={item} chatId={chatId} />}
    </div>
  );
}

/** A file-change item: each file with its diff. */
export function FileChangeItem({ item }: { item: Extract<ChatItem, { type: 'fileChange' }> }): ReactElement {
  const status = useShownStatus(item);
  return (
    <div className={`file-changes status-${status}`} data-testid="file-change-item" data-status={status}>
      {item.changes.map((c) => (
        <div key={c.path} className="file-change">
          <div className="file-path">
            <span className="kind">{c.kind}</span> <code>{c.path}</code>
            {status !== 'completed' && <span className={`badge cmd-${status}`}>{STATUS_LABEL[status]}</span>}
          </div>
          <Diff diff={c.diff} />
        </div>
      ))}
    </div>
  );
}
