/**
 * What an approval to run a command OUTSIDE the sandbox (an escalation, contract
 * `ApprovalView.outsideSandbox`) means, in the same words on every surface: the window's card, the
 * native notification and the tray. Measured on codex 0.169.0 (Linux, bubblewrap): an approved
 * escalation runs with the whole filesystem writable except the launch's deny entries, which it still
 * cannot read either; so it can change the workspace's `_shared/`, the profile's launch files (`.codex`,
 * `.claude`, `.agents`), `<state>/bin/angelia` that every agent runs, and the dotfiles of your home.
 * Nothing here imports Node, Electron or React.
 */

/** The escalation part of an approval view: how many deny entries the launch has (null: unknown). */
export interface OutsideSandbox {
  denied: number | null;
}

/** "the 3 denied places", "the 1 denied place", or, when unknown, "the places this profile denies". */
function deniedPhrase(denied: number | null): string {
  if (denied === null) return 'the places this profile denies';
  return `the ${denied} denied place${denied === 1 ? '' : 's'}`;
}

/**
 * The headline: what the command can do once allowed. "Runs outside the sandbox: it can change any file
 * you can, except the 3 denied places (it cannot read those either)." With no deny entry (`denied` 0):
 * "… any file you can; this profile denies no place."
 */
export function outsideSandboxHeadline(o: OutsideSandbox): string {
  if (o.denied === 0) return 'Runs outside the sandbox: it can change any file you can; this profile denies no place.';
  return `Runs outside the sandbox: it can change any file you can, except ${deniedPhrase(o.denied)} (it cannot read those either).`;
}

/** What "any file you can" includes that the sandbox otherwise protects. */
export const OUTSIDE_SANDBOX_REACH =
  "That includes the workspace's _shared/ folder, this profile's launch files (.codex, .claude, .agents), the angelia command every agent runs, and your home's dotfiles.";

/** The advice that closes the explanation. */
export const OUTSIDE_SANDBOX_ADVICE = 'Allow only if you would run it yourself.';

/** The whole explanation as lines: headline, what it reaches, advice. */
export function outsideSandboxLines(o: OutsideSandbox): [string, string, string] {
  return [outsideSandboxHeadline(o), OUTSIDE_SANDBOX_REACH, OUTSIDE_SANDBOX_ADVICE];
}
