/**
 * Builds a chat's launch plan from the accepted table: the Codex executable, the compiled `-c` flags,
 * a scrubbed environment, and the thread parameters with developerInstructions. Any problem throws an
 * AppFailure that names the cause and the fix; nothing falls back to a weaker sandbox. The one launch
 * path of core/launch/: the guard is read by guard.ts, checked by check.ts, the start's folders are
 * made by prepare.ts and the child's environment by env.ts.
 *
 * How the agent's commands reach Angelia (docs/sandbox-sockets.md): the chat's mailbox
 * (mailbox.ts) is created before the spawn with its identity file (chat id and chat token) and
 * given as one write entry; the environment carries `ANGELIA_API_SOCK`, `ANGELIA_MAILBOX`,
 * `ANGELIA_SESSION_KEY`, `ANGELIA_API_TOKEN` and PATH with `<state>/bin` (the `angelia` launcher,
 * agentCommand.ts) first. The agent's commands get only the variables compile/codexProfile.ts
 * `commandEnvNames` lists (shell_environment_policy.include_only): `ANGELIA_API_TOKEN` is not one of them,
 * so the commands read the token from the identity file.
 */
import { AppFailure } from '../../../shared/result';
import { grantFloor, type GrantFloor } from '../approvals/privateReach';
import { resolveCodexBin, type ResolvedCodex } from '../codex/resolve';
import { compileCodexLaunch, threadParams } from '../compile/codexProfile';
import { developerInstructions } from '../compile/developerInstructions';
import type { CompileFacts } from '../compile/facts';
import { gatherFacts } from '../compile/gather';
import { agentWritable, checkGrants, refuseGrants, type GrantFacts } from '../compile/grants';
import { liveFs } from '../compile/pathWalk';
import { mcpEnvNames } from '../compile/mcpFlags';
import { statSync } from 'node:fs';
import { delimiter } from 'node:path';
import type { InstancePaths } from '../instance/paths';
import { angeliaProgram } from '../instance/program';
import type { LoadedTable } from '../table/load';
import type { CodexSpawnSpec } from '../codex/connection';
import type { ExpectedLaunch } from '../codex/attest';
import { agentBinDir } from './agentCommand';
import { checkLaunch, currentGrants, refuseOn } from './check';
import { ASK_ENV, childEnv, scrubFor } from './env';
import { readLaunchFiles } from './guard';
import { prepareSandbox, prepareStart } from './prepare';

/** Everything needed to start this chat's agent, compiled from the accepted table (throws AppFailure to refuse). */
export interface LaunchPlan {
  spawn: CodexSpawnSpec;
  sandboxed: boolean;
  permissionsExtends: string | null;
  /** Approval policy is on-request (modes default and acceptEdits). */
  onRequest: boolean;
  /** thread/start and thread/resume parameters (never a `sandbox` value while sandboxed). */
  threadParams: Record<string, unknown>;
  effort: string | null;
  /** What the managed-requirements check compares against. */
  expect: ExpectedLaunch;
  /** MCP servers the profile was given (any other that would load refuses the start). */
  allowedMcpServers: string[];
  /** What no runtime grant may open for this launch (approvals/privateReach.ts `grantFloor`). */
  grantFloor: GrantFloor;
  /**
   * The compiled launch's deny entries (absolute paths; codexProfile.ts `filesystem` entries `deny`): the
   * only places a command Codex runs outside the sandbox still cannot touch (approval cards say how many).
   * Absent: unknown.
   */
  sandboxDeny?: readonly string[];
  /**
   * The compiled launch's filesystem entries (codexProfile.ts `filesystem`): what the running agent can
   * see, compared with a newly accepted table's (orchestrator.ts `useTable`). Absent: unknown.
   */
  filesystem?: Readonly<Record<string, 'read' | 'write' | 'deny'>>;
  /** True for a read-only launch (plan mode, the /ask variant): nothing is writable. */
  readOnly?: boolean;
}

/**
 * `floor` with every folder ANOTHER profile's agent can write (compile/grants.ts `agentWritable`) added
 * as a writable place not the agent's own: a runtime grant in one, or a write grant holding one, is
 * refused (approvals/privateReach.ts), since that other agent could put a symbolic link on the path, and
 * codex 0.169.0 resolves a grant again for every command (docs/security-model.md "Grants are checked by
 * real path, at compile and at every start"). Reads the filesystem (real paths).
 */
export function withOthersWritable(floor: GrantFloor, table: LoadedTable, profile: string, paths: InstancePaths): GrantFloor {
  const others = agentWritable(table, grantFactsOf(paths), liveFs).filter((w) => w.profile !== null && w.profile !== profile);
  const writable = [...floor.writable];
  for (const w of others) if (!writable.some((x) => x.path === w.path)) writable.push({ path: w.path, why: w.by, own: false });
  return { ...floor, writable };
}

/** The grant check's facts (compile/grants.ts) for an instance, read now. */
export function grantFactsOf(paths: InstancePaths, platform: NodeJS.Platform = process.platform): GrantFacts {
  // As compile's facts have it (gather.ts: `stat`, so a workspace reached through a link exists too).
  let workspaceExists = false;
  try {
    workspaceExists = statSync(paths.workspace).isDirectory();
  } catch {
    // No workspace: no `_common/` to give.
  }
  return { stateDir: paths.stateDir, home: paths.home, codexHome: paths.codexHome, workspace: paths.workspace, workspaceExists, platform };
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
  /**
   * The read-only variant `POST /ask` answers under (compile/codexProfile.ts LaunchExtras `readOnly`,
   * chats/ask.ts): the same checks and compile, every write entry made read, approvals `never`; no
   * mailbox, no API variables and no `angelia` launcher on PATH (a read-only copy messages nobody; its
   * environment carries `ANGELIA_ASK=1` instead, so an `angelia` run there says why), and plan-mode
   * instructions.
   */
  readOnly?: boolean;
}

/**
 * The facts a launch compiles with (also used by `angelia verify`, so it probes the same flags): those
 * of compile's `gatherFacts`, read now. The API socket is granted on macOS only (Seatbelt allows one
 * socket file); on Linux none is (codex 0.169.0 has no per-socket allowlist there, and agents use their
 * mailbox). Throws AppFailure `codex-config` when the user's Codex config cannot be read.
 */
export async function launchFacts(paths: InstancePaths, platform: NodeJS.Platform = process.platform): Promise<CompileFacts> {
  const facts = await gatherFacts(paths, platform);
  return { ...facts, apiSocket: platform === 'darwin' ? paths.apiSock : null };
}

/**
 * Compiles the profile and gathers what a start needs, after the executable check, the launch check
 * (check.ts: the shape of the start, then what the accepted table loosens) and the grant check, with
 * the start's folders prepared (prepare.ts) and the child's environment built (env.ts `childEnv`).
 * Throws AppFailure (code "refused") with the fix.
 */
export async function planLaunch(input: PlanInput): Promise<LaunchPlan> {
  const { table, paths } = input;
  const profile = table.profiles[input.profile];
  if (!profile)
    throw new AppFailure({
      code: 'refused',
      message: `the profile "${input.profile}" is not in the table`,
      where: table.file,
      fix: 'add it to the table or pick another chat',
    });
  let codex: ResolvedCodex;
  try {
    codex = resolveCodexBin(profile.bin ?? undefined, { env: input.env });
  } catch (e) {
    throw new AppFailure({
      code: 'refused',
      message: `the Codex executable is not installed where Angelia can find it: ${(e as Error).message}`,
      where: `${table.file}: profiles.${profile.name}.bin`,
      fix: 'run angelia check-config',
    });
  }
  // The launch check (check.ts), in two steps on one read of the guard: the shape of the start now, and
  // once the launch is compiled, what the accepted table loosens since the last compile.
  const files = await readLaunchFiles(paths.stateDir, profile);
  refuseOn(checkLaunch({ ...files, profile }), paths.stateDir, profile.name);
  const readOnly = input.readOnly === true;
  const mcp = mcpEnvNames(table, profile);
  const parentEnv = scrubFor(input.env, mcp);
  // Every grant, restriction and program run outside the sandbox, by real path, now (compile/grants.ts):
  // what compile checked can have changed since (a folder renamed, a link put on a path).
  refuseGrants(
    checkGrants(table, grantFactsOf(paths), liveFs, {
      profiles: [profile.name],
      exec: () => ({
        codex: codex.path,
        searchPath: [...(readOnly ? [] : [agentBinDir(paths.stateDir)]), ...(parentEnv.PATH ? parentEnv.PATH.split(delimiter) : [])],
        mcpCwd: paths.home,
        program: angeliaProgram(),
      }),
    }),
    table.file,
    'refused',
  );
  // Before the facts are read: the private folders and the chat's mailbox must exist when Codex mounts
  // the sandbox (prepare.ts).
  const { token, mailbox, launcher } = await prepareStart(paths, { chatId: input.chatId, sandboxed: profile.sandbox, readOnly });
  const facts = await launchFacts(paths);
  const launch = compileCodexLaunch(table, profile.name, facts, { mailbox, readOnly });
  if (launch.sandboxed)
    refuseOn(checkLaunch({ ...files, profile, current: currentGrants(table, profile, facts, launch.mcpServers) }), paths.stateDir, profile.name);
  await prepareSandbox(launch);
  const reach = launcher !== null && launch.mailbox !== null;
  const params = {
    ...threadParams(launch, profile),
    developerInstructions: developerInstructions({
      profile: profile.name,
      stateDir: paths.stateDir,
      tableFile: table.file,
      cwd: profile.cwd,
      writable: launch.writableRoots.filter((w) => w !== profile.cwd),
      sandboxed: launch.sandboxed,
      mode: readOnly ? 'plan' : profile.permissionMode,
      api: reach ? { command: launcher, chat: input.chatId } : null,
    }),
  };
  const path = [...(launcher ? [agentBinDir(paths.stateDir)] : []), ...(parentEnv.PATH ? [parentEnv.PATH] : [])].join(delimiter);
  return {
    spawn: {
      bin: codex.path,
      args: launch.codexArgs,
      cwd: profile.cwd,
      env: childEnv(parentEnv, {
        mcp,
        codex,
        add: {
          ...launch.env,
          CODEX_HOME: paths.codexHome,
          ...(readOnly ? { [ASK_ENV]: '1' } : { ANGELIA_SESSION_KEY: input.chatId, ANGELIA_API_TOKEN: token, ANGELIA_API_SOCK: paths.apiSock }),
          ...(launch.mailbox ? { ANGELIA_MAILBOX: launch.mailbox } : {}),
          ...(path ? { PATH: path } : {}),
        },
      }),
    },
    sandboxed: launch.sandboxed,
    permissionsExtends: launch.permissionsExtends,
    onRequest: launch.approvalPolicy === 'on-request',
    threadParams: params,
    effort: profile.effort,
    expect: {
      sandboxed: launch.sandboxed,
      approvalPolicy: launch.approvalPolicy,
      features: featuresOf(launch.codexArgs),
      ...(launch.sandboxed ? { sandboxMode: launch.readOnly ? 'read-only' : 'workspace-write' } : {}),
    },
    allowedMcpServers: launch.mcpServers,
    // The compiled entries themselves (deny: never granted; read: never granted for writing).
    // Also what the agent can already write (its folders, cache, Codex's `:tmpdir`, and /tmp): a grant
    // there could be swapped for a symbolic link after the answer, so none is given (privateReach.ts).
    grantFloor: withOthersWritable(
      grantFloor({
        stateDir: paths.stateDir,
        home: paths.home,
        codexHome: paths.codexHome,
        cwd: profile.cwd,
        platform: facts.platform,
        filesystem: launch.filesystem,
        sources: launch.sources,
        writableRoots: launch.writableRoots,
        tmpdir: launch.env.TMPDIR ?? parentEnv.TMPDIR ?? null,
      }),
      table,
      profile.name,
      paths,
    ),
    // What an escalated command (run outside the sandbox) still cannot touch: the approval card counts them.
    sandboxDeny: Object.entries(launch.filesystem)
      .filter(([, access]) => access === 'deny')
      .map(([path]) => path),
    filesystem: launch.filesystem,
    readOnly: launch.readOnly,
  };
}
