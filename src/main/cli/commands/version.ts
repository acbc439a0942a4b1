import type { CliCommand } from '../command';
import { APP_VERSION } from '../../core/instance/version';

/** `angelia version`: prints Angelia's version. */
export const version: CliCommand = {
  summary: "print Angelia's version (also angelia --version, -v)",
  exits: { 0: 'printed' },
  async run() {
    process.stdout.write(`angelia ${APP_VERSION}\n`);
    return 0;
  },
};
