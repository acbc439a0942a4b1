/**
 * The environment of a Codex child (docs/security-model.md "Codex's own environment"), in one place:
 * the parent's environment minus the variables never passed (`STRIPPED_ENV`: billing and endpoint
 * switches, Angelia's own channel variables, which the launch sets as it means them) and minus the
 * secrets of MCP servers the profile is not given, plus the launch's own variables, plus what the
 * resolved Codex executable adds or removes (codex/resolve.ts `ResolvedCodex`). planLaunch (plan.ts) and
 * `angelia verify` (verify/run.ts) both build theirs with `childEnv`.
 *
 * No imports at all (Node built-ins neither), so the early start of `angelia run` (codex/prespawn.ts)
 * strips `STRIPPED_ENV` too before Angelia's plan has loaded.
 */

/** Variables never passed to a Codex child (the launch sets Angelia's own as it means them). */
export const STRIPPED_ENV = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'CODEX_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'XAI_API_KEY',
  'ANGELIA_API_TOKEN',
  'ANGELIA_SESSION_KEY',
  'ANGELIA_API_SOCK',
  'ANGELIA_MAILBOX',
  'ANGELIA_ASK',
] as const;

/**
 * Set (to `1`) in the environment of a read-only copy answering `POST /ask`, and only there: its
 * commands have no channel to Angelia by design, and the `angelia` command says so (api/client.ts).
 */
export const ASK_ENV = 'ANGELIA_ASK';

/** The MCP secrets of a table (compile/mcpFlags.ts `mcpEnvNames`): every capability's, and the profile's own. */
export interface McpEnvNames {
  all: readonly string[];
  given: readonly string[];
}

/** What a resolved Codex executable changes in its environment (codex/resolve.ts `ResolvedCodex`). */
export interface CodexEnvDelta {
  env: Record<string, string>;
  unsetEnv: readonly string[];
}

/** The parent's environment minus `STRIPPED_ENV`, `RUST_LOG` defaulted to `warn`, plus `add`. Pure. */
export function scrubEnv(parent: NodeJS.ProcessEnv, add: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...parent };
  for (const k of STRIPPED_ENV) delete out[k];
  return { ...out, RUST_LOG: out.RUST_LOG ?? 'warn', ...add };
}

/** The parent's environment minus the MCP secrets the profile is not given (`mcp.all` not in `mcp.given`). Pure. */
export function scrubFor(parent: NodeJS.ProcessEnv, mcp: McpEnvNames): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...parent };
  for (const name of mcp.all) if (!mcp.given.includes(name)) delete out[name];
  return out;
}

/** `base` with `resolved.unsetEnv` removed and `resolved.env` added (a new object). Pure. */
export function codexEnv(base: NodeJS.ProcessEnv, resolved: CodexEnvDelta): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...base };
  for (const k of resolved.unsetEnv) delete out[k];
  return Object.assign(out, resolved.env);
}

/**
 * The whole environment of a Codex child: `parent` minus the MCP secrets not given (`scrubFor`), minus
 * `STRIPPED_ENV` and plus `add` (`scrubEnv`), then the executable's own changes (`codexEnv`). Pure.
 */
export function childEnv(parent: NodeJS.ProcessEnv, opts: { mcp: McpEnvNames; add: Record<string, string>; codex: CodexEnvDelta }): NodeJS.ProcessEnv {
  return codexEnv(scrubEnv(scrubFor(parent, opts.mcp), opts.add), opts.codex);
}
