/**
 * Builds a chat's launch plan from the accepted table: the Codex executable, the compiled `-c` flags,
 * a scrubbed environment, and the thread parameters with developerInstructions. Any problem throws an
 * AppFailure that names the cause and the fix; nothing falls back to a weaker sandbox.
 */
import { AppFailure } from '../../../shared/result';
import { codexEnv, resolveCodexBin, type ResolvedCodex } from '../codex/resolve';
import { ensureCacheDirs } from '../compile/cache';
import { compileCodexLaunch, threadParams } from '../compile/codexProfile';
import { developerInstructions } from '../compile/developerInstructions';
import { readUserMcpServers } from '../compile/userConfig';
import type { InstancePaths } from '../instance/paths';
import { chatToken, ensureOwnerToken } from '../api/tokens';
import type { LoadedTable } from '../table/load';
import type { LaunchPlan } from './chat';

/** Variables never passed to a Codex child: billing and endpoint switches (seed-spec §4.3). */
export const STRIPPED_ENV = [
  'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_API_KEY',
  'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'XAI_API_KEY',
  'ANGELIA_API_TOKEN', 'ANGELIA_SESSION_KEY',
] as const;

/** The child's environment: the parent's minus stripped variables, plus the launch's own. */
export function scrubEnv(parent: NodeJS.ProcessEnv, add: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...parent };
  for (const k of STRIPPED_ENV) delete out[k];
  return { ...out, RUST_LOG: out.RUST_LOG ?? 'warn', ...add };
}

/** The `features.<name>=<bool>` flags of a compiled argv (`-c` pairs). */
export function featuresOf(args: readonly string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (let i = 0; i + 1 < args.length; i++) {
    const m = args[i] === '-c' ? /^features\.([A-Za-z0-9_]+)=(true|false)$/.exec(args[i + 1] ?? '') : null;
    if (m?.[1]) out[m[1]] = m[2] === 'true';
  }
  return out;
}

/** Inputs of a launch plan. */
export interface PlanInput {
  table: LoadedTable;
  profile: string;
  /** The chat the agent serves: its token and session key go into the child's environment. */
  chatId: string;
  paths: InstancePaths;
  env: NodeJS.ProcessEnv;
}

/** Compiles the profile and gathers what a start needs. Throws AppFailure (code "refused") with the fix. */
export async function planLaunch(input: PlanInput): Promise<LaunchPlan> {
  const { table, paths } = input;
  const profile = table.profiles[input.profile];
  if (!profile) throw new AppFailure({ code: 'refused', message: `the profile "${input.profile}" is not in the table`, where: table.file, fix: 'add it to the table or pick another chat' });
  let codex: ResolvedCodex;
  try {
    codex = resolveCodexBin(profile.bin ?? undefined, { env: input.env });
  } catch (e) {
    throw new AppFailure({ code: 'refused', message: `the Codex executable is not installed where Angelia can find it: ${(e as Error).message}`, where: `${table.file}: profiles.${profile.name}.bin`, fix: 'run angelia check-config' });
  }
  const userMcpServers = await readUserMcpServers(paths.codexHome);
  const launch = compileCodexLaunch(table, profile.name, {
    home: paths.home, stateDir: paths.stateDir, workspace: paths.workspace, codexHome: paths.codexHome,
    apiSocket: null, platform: process.platform, userMcpServers,
  });
  if (launch.cacheDir) await ensureCacheDirs(launch.cacheDir);
  const params = {
    ...threadParams(launch, profile),
    developerInstructions: developerInstructions({
      profile: profile.name, stateDir: paths.stateDir, tableFile: table.file, cwd: profile.cwd,
      writable: launch.writableRoots.filter((w) => w !== profile.cwd), sandboxed: launch.sandboxed, mode: profile.permissionMode,
    }),
  };
  return {
    spawn: { bin: codex.path, args: launch.codexArgs, cwd: profile.cwd, env: codexEnv(scrubEnv(input.env, {
      ...launch.env, CODEX_HOME: paths.codexHome,
      ANGELIA_SESSION_KEY: input.chatId, ANGELIA_API_TOKEN: chatToken(ensureOwnerToken(paths.apiToken), input.chatId),
    }), codex) },
    sandboxed: launch.sandboxed,
    permissionsExtends: launch.permissionsExtends,
    onRequest: launch.approvalPolicy === 'on-request',
    threadParams: params,
    effort: profile.effort,
    expect: { sandboxed: launch.sandboxed, approvalPolicy: launch.approvalPolicy, features: featuresOf(launch.codexArgs) },
    allowedMcpServers: [],
  };
}
