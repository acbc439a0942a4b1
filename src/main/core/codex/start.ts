/**
 * The production way to start a Codex connection from a spawn spec (bin, argv ending with "app-server",
 * cwd, env): `CodexClient.start` with Angelia's defaults. Matches `StartCodex` of core/codex/connection.ts.
 */
import { CodexClient } from './client';
import type { ChildTracker } from './launcher';

/**
 * What `startCodexClient` needs: the executable, its whole argv (ending with "app-server"), cwd and env;
 * optionally a tracker told about the child's spawn and exit (the orchestrator passes `childTracker`, so
 * every child is recorded in `<state>/private/children.json`). A `CodexSpawnSpec` with `track` added.
 */
export interface CodexStartSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  track?: ChildTracker;
}

/**
 * Starts `spec.bin ...spec.args`, completes `initialize` (60 s deadline) and resolves with the client;
 * a malformed routed notification is logged once per method on stderr (`console.warn`).
 * Throws `CodexStartError` (exit code and stderr tail when Codex exited, e.g. on a bad `-c` flag; the
 * tracker's error when the child could not be recorded).
 */
export function startCodexClient(spec: CodexStartSpec): Promise<CodexClient> {
  return CodexClient.start({
    bin: spec.bin,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    track: spec.track,
    // A routed notification Codex sent with params Angelia cannot read: one line (events.ts), never the chat's.
    onProtocolIssue: (issue) => {
      if (issue.kind === 'notification') console.warn(`angelia: ${issue.message}`);
    },
  });
}
