/** The command table. Add a command by importing its module here. */
import type { CliCommand } from '../command';
import { version } from './version';
import { init } from './init';
import { checkConfig } from './check-config';
import { compile } from './compile';
import { run } from './run';
import { serve } from './serve';
import { demo } from './demo';
import { accept } from './accept';
import { verify } from './verify';
import { exportCommand } from './export';
import { sessions } from './sessions';
import { send } from './send';
import { sendMedia } from './send-media';
import { turn } from './turn';
import { ask } from './ask';
import { profiles } from './profiles';
import { status } from './status';
import { guide } from './guide';
import { account, login, logout } from './account';

export const commands: Record<string, CliCommand> = {
  version,
  init,
  'check-config': checkConfig,
  compile,
  run,
  serve,
  demo,
  accept,
  verify,
  export: exportCommand,
  sessions,
  send,
  'send-media': sendMedia,
  turn,
  ask,
  profiles,
  status,
  account,
  login,
  logout,
  guide,
};
