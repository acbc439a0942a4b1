/**
 * The contract's `chats:turnDiff` and `chats:headDiff` handlers (src/shared/contract.ts), for the
 * orchestrator's `api()`: a turn's changes (chatTurns.ts) and the profile's folder against git's HEAD
 * (head.ts, git run in the profile's own read-only sandbox: headSandbox.ts).
 */
import type { CoreApi } from '../../../../shared/contract';
import { AppFailure } from '../../../../shared/result';
import type { InstancePaths } from '../../instance/paths';
import type { LoadedTable } from '../../table/load';
import type { ChatInside } from '../inside';
import { turnDiffView } from './chatTurns';
import { headDiffInSandbox } from './headSandbox';

/** What the handlers need of the orchestrator. */
export interface TurnDiffHost {
  /** A chat by id; throws for an unknown one. */
  chat: (chatId: string) => ChatInside;
  /** The table in force (a profile's folder). */
  table: () => LoadedTable;
  /** Angelia's environment (git gets it without `GIT_*`). */
  env: NodeJS.ProcessEnv;
  /** The instance (its Codex home, state folder and launch guards: the profile's sandbox). */
  paths: InstancePaths;
}

/** The two handlers (see the module comment). */
export function turnDiffHandlers({ chat, table, env, paths }: TurnDiffHost): Pick<CoreApi['handlers'], 'chats:turnDiff' | 'chats:headDiff'> {
  const folderOf = (profile: string): string | null => (Object.hasOwn(table().profiles, profile) ? (table().profiles[profile]?.cwd ?? null) : null);
  return {
    'chats:turnDiff': async ({ chatId, turnId }) => {
      const c = chat(chatId);
      return turnDiffView(c, turnId, folderOf(c.deps.profile));
    },
    'chats:headDiff': async ({ chatId }) => {
      const c = chat(chatId);
      const folder = folderOf(c.deps.profile);
      if (!folder) throw new AppFailure({ code: 'unknown-profile', message: `the profile "${c.deps.profile}" of chat ${chatId} is no longer in the table` });
      return headDiffInSandbox({ paths, table: table(), profile: c.deps.profile, env });
    },
  };
}
