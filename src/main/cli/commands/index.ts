/** The command table. Add a command by importing its module here. */
import type { CliCommand } from '../command';
import { version } from './version';

export const commands: Record<string, CliCommand> = {
  version,
};
