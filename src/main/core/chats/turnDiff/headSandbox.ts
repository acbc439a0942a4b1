/**
 * The profile's folder against git's HEAD, with git run in the profile's own sandbox (launch/sandboxRun.ts,
 * the way `angelia verify` runs its probes), in its read-only variant (`/ask`'s: every write entry a read;
 * git diff writes nothing). Git therefore reads only what the profile's agent could read, and nothing the
 * repository's config names can write anywhere or reach what the profile does not grant. Never outside a
 * sandbox: a profile with `sandbox = false`, a launch a start would refuse now (launch/check.ts), or a
 * sandbox that cannot be prepared gives `unavailable` with the reason (docs/architecture.md "A turn's
 * changes, measured"; docs/security-model.md "Angelia's own commands in a profile's folder").
 */
import type { HeadDiffView } from '../../../../shared/turnDiff';
import type { InstancePaths } from '../../instance/paths';
import { currentGrants, launchReasons, refusalText } from '../../launch/check';
import { profileSandbox, type ProfileSandbox } from '../../launch/sandboxRun';
import type { LoadedTable } from '../../table/load';
import { gitEnv, gitRunner, headDiff } from './head';

/** Inputs of `headDiffInSandbox`. */
export interface HeadSandboxInput {
  paths: InstancePaths;
  /** The table in force. */
  table: LoadedTable;
  profile: string;
  /** Angelia's environment (scrubbed as for a launch, without `GIT_*`: head.ts `gitEnv`). */
  env: NodeJS.ProcessEnv;
}

/** `folder` (the profile's) against HEAD (head.ts `headDiff`), git run in the profile's read-only sandbox. Never throws. */
export async function headDiffInSandbox(input: HeadSandboxInput): Promise<HeadDiffView> {
  const profile = Object.hasOwn(input.table.profiles, input.profile) ? input.table.profiles[input.profile] : undefined;
  const folder = profile?.cwd ?? '';
  const unavailable = (message: string): HeadDiffView => ({ state: 'unavailable', folder, message });
  if (!profile) return unavailable(`The profile "${input.profile}" is no longer in the table.`);
  if (!profile.sandbox)
    return unavailable(
      "This profile runs without a sandbox (sandbox = false). Angelia runs git in a folder an agent writes only inside that profile's sandbox, so it does not show the folder against HEAD here; use git in a terminal.",
    );
  let sandbox: ProfileSandbox;
  try {
    sandbox = await profileSandbox({ paths: input.paths, table: input.table, profile: profile.name, env: input.env, readOnly: true, envFor: gitEnv });
  } catch (e) {
    return unavailable(`The profile's sandbox cannot be prepared, so Angelia does not run git here: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!sandbox.run) return unavailable('The profile has no sandbox to run git in; use git in a terminal.');
  // The grants git runs under are those a start of this profile would get now: none a start would refuse.
  const reasons = await launchReasons(input.paths.stateDir, profile, currentGrants(input.table, profile, sandbox.facts, sandbox.launch.mcpServers));
  if (reasons.length > 0)
    return unavailable(`A start of this profile would be refused now, so Angelia does not run git under its grants: ${refusalText(reasons)}`);
  return headDiff(folder, gitRunner(sandbox.run));
}
