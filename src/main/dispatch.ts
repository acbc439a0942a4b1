/**
 * The one generic dispatcher every host uses (Electron IPC, the headless host's WebSocket): checks the
 * channel name, parses the input with the contract's schema, runs the handler and wraps the answer as a
 * `Result`. Nothing thrown crosses the boundary.
 */
import { invokeTable, isChannel, type CoreApi } from '../shared/contract';
import { err, ok, toAppError, type Result } from '../shared/result';

/** Runs one invoke from an untrusted caller. Never throws. */
export async function dispatch(core: CoreApi, channel: unknown, input: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) return err('bad-channel', `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`);
  const parsed = invokeTable[channel].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err('bad-input', `invalid input for ${channel}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`);
  }
  try {
    const handler = core.handlers[channel] as (i: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (e) {
    return { ok: false, error: toAppError(e) };
  }
}
