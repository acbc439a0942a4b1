/**
 * The production way to start a Codex connection from a spawn spec (bin, argv ending with "app-server",
 * cwd, env): `CodexClient.start` with Angelia's defaults. Matches `StartCodex` of core/chats/connection.ts.
 */
import { CodexClient } from './client';

/** What `startCodexClient` needs: the executable, its whole argv (ending with "app-server"), cwd and env. */
export interface CodexStartSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Starts `spec.bin ...spec.args`, completes `initialize` (60 s deadline) and resolves with the client.
 * Throws `CodexStartError` (exit code and stderr tail when Codex exited, e.g. on a bad `-c` flag).
 */
export function startCodexClient(spec: CodexStartSpec): Promise<CodexClient> {
  return CodexClient.start({ bin: spec.bin, args: spec.args, cwd: spec.cwd, env: spec.env });
}
