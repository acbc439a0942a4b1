/**
 * The `initialize` request Angelia sends every `codex app-server` it starts, in one place: `CodexClient.start`
 * sends it, and `angelia run`'s early Codex start (prespawn.ts) sends the very same params before the
 * launch plan is ready. Node built-ins only (the early start loads this before the rest of the CLI).
 *
 * Protocol facts (codex-cli 0.169.0, generated `InitializeParams`, `shared/design/codex-app-server.md` §1):
 * `{clientInfo: {name, title, version}, capabilities: {experimentalApi, requestAttestation}}`; Codex uses
 * `clientInfo.name` as its originator and user-agent prefix; a second `initialize` on one connection is
 * refused, so a child is initialized exactly once, by whoever started it.
 */
import type { InitializeParams } from './generated/InitializeParams';
import { APP_VERSION } from '../instance/version';

/** The request id of the early `initialize` (a string, so it can never equal the client's numeric ids). */
export const EARLY_INITIALIZE_ID = 'angelia-early-initialize';

/**
 * Angelia's `initialize` params: `clientInfo {name (default "angelia"), title "Angelia", version (default
 * Angelia's)}`, `capabilities {experimentalApi: true, requestAttestation: false}` (false: Codex sends no
 * `attestation/generate` requests).
 */
export function initializeParams(clientName = 'angelia', clientVersion = APP_VERSION): InitializeParams {
  return {
    clientInfo: { name: clientName, title: 'Angelia', version: clientVersion },
    capabilities: { experimentalApi: true, requestAttestation: false },
  };
}

/** Whether two `initialize` params are the same request (same JSON, key order included: both come from `initializeParams`). */
export function sameInitialize(a: InitializeParams, b: InitializeParams): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
