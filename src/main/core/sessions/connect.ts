/**
 * The short-lived app-server "find past work" reads and changes threads on (docs/architecture.md
 * "Sessions"): Angelia's own, over the instance's CODEX_HOME, as the account's (account/server.ts
 * `accountSpawnSpec`: the pinned Codex, Angelia's scrubbed environment, the Codex home as its folder). It
 * starts no thread and runs no command, so there is no sandbox to attest; no agent can reach it. Only the
 * version gate applies (codex/session.ts `gateVersion`). Recorded in `<state>/private/children.json` like
 * every child (chat id `sessions`).
 */
import { accountSpawnSpec } from '../account/server';
import { childTracker } from '../codex/children';
import type { CodexConnection } from '../codex/connection';
import { gateVersion } from '../codex/session';
import type { CodexStartSpec } from '../codex/start';

/**
 * A `connect` for the catalog (catalog.ts): each call starts one app-server with `start` and completes
 * `initialize`; a Codex the version gate refuses is stopped and its AppFailure `refused` thrown.
 */
export function sessionsConnect(opts: {
  codexHome: string;
  env: NodeJS.ProcessEnv;
  childrenFile: string;
  start: (spec: CodexStartSpec) => Promise<CodexConnection>;
}): () => Promise<CodexConnection> {
  return async () => {
    const spec = await accountSpawnSpec(opts.codexHome, opts.env);
    const conn = await opts.start({ ...spec, track: childTracker(opts.childrenFile, { chatId: 'sessions', bin: spec.bin }) });
    try {
      gateVersion(conn);
    } catch (e) {
      await conn.stop();
      throw e;
    }
    return conn;
  };
}
