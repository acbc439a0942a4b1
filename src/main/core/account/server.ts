/**
 * The short-lived `codex app-server` of Angelia's own that reads and changes the account of one Codex
 * home: never an agent's, no thread, no sandbox to attest (it runs no command). Spawned with the
 * instance's CODEX_HOME and Angelia's scrubbed child environment (launch/env.ts: `STRIPPED_ENV` removed,
 * so an `OPENAI_API_KEY` of Angelia's own environment never reaches it), the pinned Codex executable
 * (codex/resolve.ts) and the Codex home as its working folder. docs/security-model.md "The Codex account".
 */
import { AppFailure } from '../../../shared/result';
import type { CodexSpawnSpec } from '../codex/connection';
import { resolveCodexBin, type ResolvedCodex } from '../codex/resolve';
import { childEnv } from '../launch/env';
import { ensureCodexHome } from '../launch/prepare';

/**
 * The spawn spec of an account app-server for `codexHome` (created, mode 700, when missing: Codex refuses
 * a CODEX_HOME that does not exist). `parentEnv` is Angelia's own environment, scrubbed here. Throws
 * AppFailure `codex-missing` when no Codex executable is found.
 */
export async function accountSpawnSpec(codexHome: string, parentEnv: NodeJS.ProcessEnv): Promise<CodexSpawnSpec> {
  let codex: ResolvedCodex;
  try {
    codex = resolveCodexBin(undefined, { env: parentEnv });
  } catch (e) {
    throw new AppFailure({ code: 'codex-missing', message: (e as Error).message });
  }
  await ensureCodexHome(codexHome);
  return {
    bin: codex.path,
    args: ['app-server'],
    cwd: codexHome,
    env: childEnv(parentEnv, { mcp: { all: [], given: [] }, codex, add: { CODEX_HOME: codexHome } }),
  };
}
