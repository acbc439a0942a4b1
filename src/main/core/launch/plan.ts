/**
 * Builds a chat's launch plan from the accepted table: the Codex executable, the compiled `-c` flags,
 * a scrubbed environment, and the thread parameters with developerInstructions. Any problem throws an
 * AppFailure that names the cause and the fix; nothing falls back to a weaker sandbox.
 *
 * How the agent's commands reach Angelia (docs/sandbox-sockets.md): the chat's mailbox
 * (compile/mailbox.ts) is created before the spawn with its identity file (chat id and chat token) and
 * given as one write entry; the environment carries `ANGELIA_API_SOCK`, `ANGELIA_MAILBOX`,
 * `ANGELIA_SESSION_KEY`, `ANGELIA_API_TOKEN` and PATH with `<state>/bin` (the `angelia` launcher,
 * compile/agentCommand.ts) first. The agent's commands get only the variables compile/codexProfile.ts
 * `commandEnvNames` lists (shell_environment_policy.include_only): `ANGELIA_API_TOKEN` is not one of them,
 * so the commands read the token from the identity file.
 */
import { AppFailure } from '../../../shared/result';
import { grantFloor, type GrantFloor } from '../approvals/privateReach';
import { codexEnv, resolveCodexBin, type ResolvedCodex } from '../codex/resolve';
import { cacheTmpDir, ensureCacheDirs, ensureSandboxPlaceholders } from '../compile/cache';
import { ensureCodexHome, ensureStateFolders } from '../compile/stateFolders';
import { compileCodexLaunch, threadParams } from '../compile/codexProfile';
import { agentBinDir, angeliaProgram, writeAgentLauncher } from '../compile/agentCommand';
import { ensureMailbox, mailboxDirFor } from '../compile/mailbox';
import { developerInstructions } from '../compile/developerInstructions';
import type { CompileFacts } from '../compile/facts';
import { gatherFacts } from '../compile/gather';
import { agentWritable, checkGrants, liveFs, refuseGrants, type GrantFacts } from '../compile/grants';
import { assertLaunchAllowed } from '../compile/guard';
import { guardFileSchema, guardPath, outsideSandbox, type OutsideSandbox } from '../compile/guardFile';
import { mcpEnvNames } from '../compile/mcpFlags';
import { profilePolicy } from '../compile/policy';
import { wantDeny, wantRead, wantWrite } from '../compile/rules';
import { readFileSync, statSync } from 'node:fs';
import { delimiter } from 'node:path';
import type { InstancePaths } from '../instance/paths';
import { chatToken, ensureOwnerToken } from '../api/tokens';
import type { LoadedTable } from '../table/load';
import type { CodexSpawnSpec } from '../codex/connection';
import type { ExpectedLaunch } from '../codex/attest';
import { STRIPPED_ENV } from '../codex/strippedEnv';

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

export { STRIPPED_ENV } from '../codex/strippedEnv';

/**
 * Set (to `1`) in the environment of a read-only copy answering `POST /ask`, and only there: its
 * commands have no channel to Angelia by design, and the `angelia` command says so (api/client.ts).
 */
export const ASK_ENV = 'ANGELIA_ASK';

/** The child's environment: the parent's minus stripped variables, plus the launch's own. */
export function scrubEnv(parent: NodeJS.ProcessEnv, add: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...parent };
  for (const k of STRIPPED_ENV) delete out[k];
  return { ...out, RUST_LOG: out.RUST_LOG ?? 'warn', ...add };
}

/**
 * Refuses a start whose accepted table now denies LESS, lets the agent write MORE, or runs more OUTSIDE
 * the sandbox (an MCP server given or redefined, another `bin`) than the last compile wrote: accepting a table
 * does not loosen a running profile's sandbox by itself; the loosening takes effect only through
 * `angelia compile --write <profile>` (a loosening goes live one profile at a time).
 * `currentDeny` is what compile would write now, `currentWrite` its write folders, `outside` what the
 * start runs outside the sandbox (guardFile.ts `outsideSandbox`; absent: not checked), `currentRead`
 * what the profile names for reading (rules.ts `wantRead`; absent: not checked); the guard holds what
 * the last compile wrote. Throws AppFailure `refused` with the fix `angelia compile --write <profile>`.
 */
export function assertCompileCurrent(stateDir: string, profile: string, currentDeny: readonly string[], currentWrite: readonly string[] = [], outside?: OutsideSandbox, currentRead?: readonly string[], currentEnv?: readonly string[]): void {
  const file = guardPath(stateDir, profile);
  const guard = guardFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!guard.success) throw new AppFailure({ code: 'refused', message: 'the launch guard cannot be read', where: file, fix: `angelia compile --write ${profile}` });
  const now = new Set(currentDeny);
  // Filesystem rules only: an mcp__ rule follows the user's own Codex config, which may change freely.
  const lifted = guard.data.deny.filter((r) => /^(Read|Edit)\(/.test(r) && !now.has(r));
  if (lifted.length) {
    throw new AppFailure({
      code: 'refused',
      message: `the accepted table now lifts ${lifted.length} deny rule(s) of the last compile (${lifted.slice(0, 3).join(', ')}${lifted.length > 3 ? ', …' : ''}); they stay in force until you compile again`,
      where: file,
      fix: `angelia compile --write ${profile}`,
    });
  }
  // Nor does it give a folder to write: a write rule the last compile did not record (an add_dir, a
  // directory capability) waits for the compile too. A guard from before `write` was recorded allows none.
  const compiled = new Set(guard.data.write ?? []);
  const added = currentWrite.filter((w) => !compiled.has(w));
  if (added.length) {
    throw new AppFailure({
      code: 'refused',
      message: `the accepted table now lets this profile write ${added.length} folder(s) the last compile did not (${added.slice(0, 3).join(', ')}${added.length > 3 ? ', …' : ''}); that takes effect when you compile again`,
      where: file,
      fix: `angelia compile --write ${profile}`,
    });
  }
  // Nor a folder to read: HOME is private by default (docs/security-model.md), and a read_dir the last
  // compile did not record waits for it. A guard from before `read` was recorded allows none.
  const recordedRead = new Set(guard.data.read ?? []);
  const newReads = (currentRead ?? []).filter((r) => !recordedRead.has(r));
  if (newReads.length) {
    throw new AppFailure({
      code: 'refused',
      message: guard.data.read === undefined
        ? `HOME is private by default now: an agent reads only its folders and what its profile names (read_dirs; left out, the toolchains ${newReads.slice(0, 3).join(', ')}${newReads.length > 3 ? ', …' : ''}), and the last compile of this profile is from before; compile again to see and accept what it may read`
        : `the accepted table now lets this profile read ${newReads.length} location(s) the last compile did not (${newReads.slice(0, 3).join(', ')}${newReads.length > 3 ? ', …' : ''}); that takes effect when you compile again`,
      where: file,
      fix: `angelia compile --write ${profile}`,
    });
  }
  // Nor a variable passed on purpose (`env`): its value reaches every command, and may be a secret.
  const recordedEnv = new Set(guard.data.env ?? []);
  const newEnv = (currentEnv ?? []).filter((n) => !recordedEnv.has(n));
  if (newEnv.length) {
    throw new AppFailure({
      code: 'refused',
      message: `the accepted table now passes ${newEnv.length} environment variable(s) to this profile's commands that the last compile did not (${newEnv.slice(0, 3).join(', ')}${newEnv.length > 3 ? ', …' : ''}); their values may be secrets, so that takes effect when you compile again`,
      where: file,
      fix: `angelia compile --write ${profile}`,
    });
  }
  if (!outside) return;
  const refuse = (message: string): never => {
    throw new AppFailure({ code: 'refused', message, where: file, fix: `angelia compile --write ${profile}` });
  };
  // Codex starts MCP servers outside the sandbox (compile/mcpFlags.ts): one given or redefined since the
  // last compile is a loosening. A guard from before `mcp` was recorded allows none (fail closed).
  const recorded = new Set(guard.data.mcp ?? []);
  const newServers = outside.mcp.filter((m) => !recorded.has(m)).map((m) => m.slice(0, m.indexOf(' ')));
  if (newServers.length > 0) {
    refuse(guard.data.mcp === undefined
      ? `the last compile did not record which MCP servers this profile may start (a launch guard from before that was recorded), and it is given ${newServers.join(', ')}; MCP servers run outside the sandbox, so they start only once you compile again`
      : `the accepted table now gives this profile ${newServers.length} MCP server(s) the last compile did not (${newServers.slice(0, 3).join(', ')}${newServers.length > 3 ? ', …' : ''}); MCP servers run outside the sandbox with your full access, so that takes effect when you compile again`);
  }
  // Codex itself runs outside the sandbox and enforces it: another executable waits for the compile too.
  const bin = guard.data.bin ?? null;
  if (outside.bin !== bin) {
    refuse(guard.data.bin === undefined
      ? `the last compile did not record which Codex executable this profile runs (a launch guard from before that was recorded), and its bin is ${outside.bin}; Codex runs outside the sandbox, so compile again`
      : `the accepted table now runs the Codex executable ${outside.bin ?? 'bundled with Angelia'} (bin), but the last compile recorded ${bin === null ? 'the bundled one' : bin}; Codex runs outside the sandbox and enforces it, so that takes effect when you compile again`);
  }
}

/**
 * `work`, with an AppFailure `unsafe-path` (a link where Angelia keeps its own folder, never followed:
 * compile/safeWrite.ts `ensurePlainFolder`) turned into a refused start with the same message and fix.
 */
async function refusing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppFailure && e.app.code === 'unsafe-path') throw new AppFailure({ ...e.app, code: 'refused' });
    throw e;
  }
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

/** The child's environment: the parent's minus stripped variables and MCP secrets not given, plus the launch's own. */
export function scrubFor(parent: NodeJS.ProcessEnv, mcp: { all: string[]; given: string[] }): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...parent };
  for (const name of mcp.all) if (!mcp.given.includes(name)) delete out[name];
  return out;
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
 * Compiles the profile and gathers what a start needs, after the executable check and the launch
 * guard check (compile/guard.ts). Throws AppFailure (code "refused") with the fix.
 */
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
  await assertLaunchAllowed(paths.stateDir, profile);
  const readOnly = input.readOnly === true;
  const parentEnv = scrubFor(input.env, mcpEnvNames(table, profile));
  // Every grant, restriction and program run outside the sandbox, by real path, now (compile/grants.ts):
  // what compile checked can have changed since (a folder renamed, a link put on a path).
  refuseGrants(checkGrants(table, grantFactsOf(paths), liveFs, {
    profiles: [profile.name],
    exec: () => ({ codex: codex.path, searchPath: [...(readOnly ? [] : [agentBinDir(paths.stateDir)]), ...(parentEnv.PATH ? parentEnv.PATH.split(delimiter) : [])], mcpCwd: paths.home, program: angeliaProgram() }),
  }), table.file, 'refused');
  // Before the facts are read: the private folders and the chat's mailbox must exist when Codex mounts
  // the sandbox (a missing denied folder is masked with a file, and a write entry below it would fail).
  if (profile.sandbox || readOnly) await refusing(ensureStateFolders(paths.stateDir));
  try {
    await ensureCodexHome(paths.codexHome);
  } catch (e) {
    throw new AppFailure({ code: 'refused', message: `Codex's home ${paths.codexHome} does not exist and cannot be created: ${(e as Error).message}`, where: paths.codexHome, fix: 'create that folder, or set CODEX_HOME to a folder that exists' });
  }
  const token = chatToken(ensureOwnerToken(paths.apiToken), input.chatId);
  let mailbox: string | null = null;
  if (!readOnly) {
    try {
      mailbox = await ensureMailbox(paths.stateDir, input.chatId, { chat: input.chatId, token });
    } catch (e) {
      throw new AppFailure({ code: 'refused', message: `the chat's mailbox cannot be prepared: ${(e as Error).message}`, where: mailboxDirFor(paths.stateDir, input.chatId), fix: 'remove whatever is at that path (Angelia creates the folder itself) and start again' });
    }
  }
  const launcher = readOnly ? null : await refusing(writeAgentLauncher(paths.stateDir));
  const facts = await launchFacts(paths);
  const launch = compileCodexLaunch(table, profile.name, facts, { mailbox, readOnly });
  if (launch.sandboxed) {
    const policy = profilePolicy(table, profile, facts);
    assertCompileCurrent(paths.stateDir, profile.name, wantDeny(policy), wantWrite(policy), outsideSandbox(table, profile, launch.mcpServers), wantRead(policy), profile.env);
  }
  if (launch.cacheDir) await refusing(ensureCacheDirs(launch.cacheDir));
  // TMPDIR is a writable entry of its own (codexProfile.ts), so Codex mounts its placeholders there too.
  if (launch.sandboxed && process.platform === 'linux') await ensureSandboxPlaceholders([...launch.writableRoots, ...(launch.cacheDir ? [cacheTmpDir(launch.cacheDir)] : [])]);
  const reach = launcher !== null && launch.mailbox !== null;
  const params = {
    ...threadParams(launch, profile),
    developerInstructions: developerInstructions({
      profile: profile.name, stateDir: paths.stateDir, tableFile: table.file, cwd: profile.cwd,
      writable: launch.writableRoots.filter((w) => w !== profile.cwd), sandboxed: launch.sandboxed, mode: readOnly ? 'plan' : profile.permissionMode,
      api: reach ? { command: launcher, chat: input.chatId } : null,
    }),
  };
  const path = [...(launcher ? [agentBinDir(paths.stateDir)] : []), ...(parentEnv.PATH ? [parentEnv.PATH] : [])].join(delimiter);
  return {
    spawn: { bin: codex.path, args: launch.codexArgs, cwd: profile.cwd, env: codexEnv(scrubEnv(parentEnv, {
      ...launch.env, CODEX_HOME: paths.codexHome,
      ...(readOnly ? { [ASK_ENV]: '1' } : { ANGELIA_SESSION_KEY: input.chatId, ANGELIA_API_TOKEN: token, ANGELIA_API_SOCK: paths.apiSock }),
      ...(launch.mailbox ? { ANGELIA_MAILBOX: launch.mailbox } : {}),
      ...(path ? { PATH: path } : {}),
    }), codex) },
    sandboxed: launch.sandboxed,
    permissionsExtends: launch.permissionsExtends,
    onRequest: launch.approvalPolicy === 'on-request',
    threadParams: params,
    effort: profile.effort,
    expect: { sandboxed: launch.sandboxed, approvalPolicy: launch.approvalPolicy, features: featuresOf(launch.codexArgs) },
    allowedMcpServers: launch.mcpServers,
    // The compiled entries themselves (deny: never granted; read: never granted for writing).
    // Also what the agent can already write (its folders, cache, Codex's `:tmpdir`, and /tmp): a grant
    // there could be swapped for a symbolic link after the answer, so none is given (privateReach.ts).
    grantFloor: withOthersWritable(grantFloor({ stateDir: paths.stateDir, home: paths.home, codexHome: paths.codexHome, cwd: profile.cwd, platform: facts.platform, filesystem: launch.filesystem, sources: launch.sources,
      writableRoots: launch.writableRoots, tmpdir: launch.env.TMPDIR ?? parentEnv.TMPDIR ?? null }), table, profile.name, paths),
    // What an escalated command (run outside the sandbox) still cannot touch: the approval card counts them.
    sandboxDeny: Object.entries(launch.filesystem).filter(([, access]) => access === 'deny').map(([path]) => path),
    filesystem: launch.filesystem,
    readOnly: launch.readOnly,
  };
}
