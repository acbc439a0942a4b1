/**
 * The command table as loaders: `angelia <command>` imports only that command's module (and what it
 * imports), not every command's. Loading the whole table made every command pay for all of them
 * (~300 ms of module loading before `angelia run` could spawn Codex; docs/benchmarks.md "turn-overhead").
 * `./index.ts` keeps the eager table (`commands`) for the usage text and tests; a unit test
 * (test/cli/lazy-commands.test.ts) checks that both list the same commands and load the same objects.
 * Add a command in both places.
 */
import type { CliCommand } from '../command';

/** Each command's loader, by name, in the order of the usage text. */
export const commandLoaders: Record<string, () => Promise<CliCommand>> = {
  version: async () => (await import('./version')).version,
  init: async () => (await import('./init')).init,
  'check-config': async () => (await import('./check-config')).checkConfig,
  compile: async () => (await import('./compile')).compile,
  run: async () => (await import('./run')).run,
  serve: async () => (await import('./serve')).serve,
  demo: async () => (await import('./demo')).demo,
  accept: async () => (await import('./accept')).accept,
  verify: async () => (await import('./verify')).verify,
  export: async () => (await import('./export')).exportCommand,
  sessions: async () => (await import('./sessions')).sessions,
  send: async () => (await import('./send')).send,
  'send-media': async () => (await import('./send-media')).sendMedia,
  turn: async () => (await import('./turn')).turn,
  ask: async () => (await import('./ask')).ask,
  profiles: async () => (await import('./profiles')).profiles,
  status: async () => (await import('./status')).status,
  account: async () => (await import('./account')).account,
  login: async () => (await import('./account')).login,
  logout: async () => (await import('./account')).logout,
  guide: async () => (await import('./guide')).guide,
};

/** The command named `name` (its module loaded now), or undefined for an unknown name. */
export async function loadCommand(name: string): Promise<CliCommand | undefined> {
  const load = Object.hasOwn(commandLoaders, name) ? commandLoaders[name] : undefined;
  return load ? load() : undefined;
}

/** Every command (all modules loaded): for the usage text. */
export async function loadAllCommands(): Promise<Record<string, CliCommand>> {
  return (await import('./index')).commands;
}
