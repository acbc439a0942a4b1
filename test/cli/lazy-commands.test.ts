/**
 * The lazy command table (src/main/cli/commands/lazy.ts) must list exactly the commands of the eager one
 * (commands/index.ts), in the same order, and each loader must give the very command object the eager
 * table holds: `angelia <command>` loads through the lazy table, the usage text through the eager one.
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/main/cli/commands';
import { commandLoaders, loadAllCommands, loadCommand } from '../../src/main/cli/commands/lazy';

describe('the lazy command table', () => {
  it('has the same commands, in the same order, as the eager table', () => {
    expect(Object.keys(commandLoaders)).toEqual(Object.keys(commands));
  });

  it('loads the same command object for every name, and nothing for an unknown or inherited name', async () => {
    for (const name of Object.keys(commands)) expect(await loadCommand(name), name).toBe(commands[name]);
    expect(await loadCommand('no-such-command')).toBeUndefined();
    expect(await loadCommand('toString')).toBeUndefined();
    expect(await loadAllCommands()).toBe(commands);
  });
});
