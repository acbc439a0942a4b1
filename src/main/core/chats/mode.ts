/**
 * What a chat shows as its mode (permission mode, approval policy, sandbox): "a mode shown must be the
 * mode in force". While the chat's Codex runs, everything shown comes from what its start was attested
 * with, never from the table (which may have changed since); when the table in force for its profile
 * differs, a plain notice says so. While no Codex runs, what is shown is what the accepted table WILL
 * apply at the next start, labelled as such. Pure: no I/O.
 */
import type { ChatMode, Enforcement, PermissionMode } from '../../../shared/contract';

/** A profile of the accepted table, as far as the mode shown goes. `fingerprint`: the whole resolved profile (JSON), to tell any change. */
export interface ProfileNow {
  permissionMode: PermissionMode;
  sandboxed: boolean;
  /** The approval policy the mode compiles to (compile/codexProfile.ts `approvalPolicyFor`). */
  approvalPolicy: 'on-request' | 'never';
  fingerprint: string;
}

/** What the running process was started and attested with. */
export interface AttestedMode {
  /** The table's permission mode when the launch plan was made (null when the profile was unknown then). */
  permissionMode: PermissionMode | null;
  /** The approval policy Codex reported on thread/start|resume (codex 0.169.0 `approvalPolicy`), else the one asked for. */
  approvalPolicy: string | null;
  /** The enforcement the thread attestation found (attest.ts `attestThread`). */
  sandbox: Enforcement | null;
  /** ISO time of the attestation. */
  at: string;
  /** The profile's fingerprint when the launch plan was made (null when unknown). */
  fingerprint: string | null;
}

/** The approval policy a permission mode compiles to: compile/codexProfile.ts `approvalPolicyFor`, the one rule. */
export { approvalPolicyFor } from '../compile/codexProfile';

/** Codex's `approvalPolicy` (a string, or `{granular: …}`, codex 0.169.0 `AskForApproval`) as one word; null when absent. */
export function approvalWord(policy: unknown): string | null {
  if (typeof policy === 'string') return policy;
  if (policy && typeof policy === 'object' && 'granular' in policy) return 'granular';
  return null;
}

/** The notice shown while a running chat's profile differs from the table in force; null when it does not differ. */
export function tableChangedNotice(attested: AttestedMode, table: ProfileNow | null): string | null {
  if (!table) return 'profile removed from the table: this chat still runs with the grants it was started with; restart it to apply the table.';
  if (attested.fingerprint !== null && attested.fingerprint === table.fingerprint) return null;
  const diffs: string[] = [];
  if (attested.permissionMode !== table.permissionMode) diffs.push(`mode ${attested.permissionMode ?? '?'} → ${table.permissionMode}`);
  if (attested.approvalPolicy !== table.approvalPolicy) diffs.push(`approval ${attested.approvalPolicy ?? '?'} → ${table.approvalPolicy}`);
  const sandboxNow: Enforcement = table.sandboxed ? 'managed' : 'disabled';
  if (attested.sandbox !== sandboxNow) diffs.push(`sandbox ${sandboxLabel(attested.sandbox)} → ${sandboxLabel(sandboxNow)}`);
  if (attested.fingerprint === null && diffs.length === 0) return null;
  return `profile changed: restart this chat to apply (${diffs.length ? diffs.join(', ') : 'other fields of the profile changed'})`;
}

function sandboxLabel(e: Enforcement | null): string {
  return e === 'managed' ? 'managed' : e === 'disabled' ? 'full access' : e === 'external' ? 'external' : 'unknown';
}

/**
 * The mode to show for a chat. `running`: its Codex process is up (and was attested); then `attested`
 * must be that process's attestation. A running chat without an attestation (cannot happen in Chat)
 * shows nothing as in force.
 */
export function deriveChatMode(input: { running: boolean; attested: AttestedMode | null; table: ProfileNow | null }): ChatMode {
  const { running, attested, table } = input;
  if (running && attested) {
    return {
      source: 'attested',
      permissionMode: attested.permissionMode,
      approvalPolicy: attested.approvalPolicy,
      sandbox: attested.sandbox,
      attestedAt: attested.at,
      tableChanged: tableChangedNotice(attested, table),
    };
  }
  return {
    source: 'next-start',
    permissionMode: table?.permissionMode ?? null,
    approvalPolicy: table?.approvalPolicy ?? null,
    sandbox: table ? (table.sandboxed ? 'managed' : 'disabled') : null,
    attestedAt: null,
    tableChanged: null,
  };
}

/** One phrase for /status: the mode as attested (running) or what the next start applies (cold). */
export function modePhrase(mode: ChatMode): string {
  const parts = `mode ${mode.permissionMode ?? 'unknown'}, approval policy ${mode.approvalPolicy ?? 'unknown'}, sandbox ${sandboxLabel(mode.sandbox)}`;
  if (mode.source === 'attested') return `${parts} (as attested at ${mode.attestedAt ?? '?'})${mode.tableChanged ? `; ${mode.tableChanged}` : ''}`;
  return `${parts} at the next start (from the accepted table; nothing is in force now)`;
}
