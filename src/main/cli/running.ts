/**
 * Whether an Angelia (the desktop app or `angelia serve`) runs on an instance: its loopback API socket
 * (instance/paths.ts `apiSock`, or `ANGELIA_API_SOCK`) accepts a connection. A socket file left by a process
 * that died refuses (ECONNREFUSED) and a missing one is ENOENT: both mean not running. Used by `angelia run`,
 * which starts its own Codex for a chat and must not do so beside a running Angelia that holds the same
 * chat's thread (docs/architecture.md "Sessions").
 */
import { connect } from 'node:net';
import { resolveInstance, type InstanceEnv } from '../core/instance/paths';

/** The socket of the Angelia running on `env`'s instance, or null when none answers (or the instance cannot be resolved). */
export async function runningAngelia(env: InstanceEnv): Promise<string | null> {
  let socketPath: string;
  try {
    socketPath = env.ANGELIA_API_SOCK || resolveInstance(env).apiSock;
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(socketPath);
    });
    socket.once('error', () => resolve(null));
  });
}
