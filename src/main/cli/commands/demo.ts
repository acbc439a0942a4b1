/**
 * `angelia demo [--port N] [--keep]`: the offline demo. A temporary instance (outside /tmp) with one
 * profile "demo", a fresh CODEX_HOME whose model provider is a local scripted Responses server, and the
 * headless host serving the UI. Real Codex and the real sandbox run; only the model is scripted. The
 * demo folder `~/.angelia-demo-*` is removed on exit unless --keep.
 *
 * Refused before anything is made (exit 3, no demo folder) when the UI is not built
 * (host/rendererDir.ts: the fix is "npm run build"). A set-up step that fails stops what started and
 * removes the demo folder (exit 1; kept with --keep). SIGINT and SIGTERM stop it cleanly from the
 * first step on, as `angelia serve`.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'smol-toml';
import { composeCore } from '../../app/compose';
import { startCodexClient } from '../../core/codex/start';
import { resolveInstance } from '../../core/instance/paths';
import { gatherFacts } from '../../core/compile/gather';
import { compileWrite } from '../../core/compile/write';
import { loadTable } from '../../core/table/load';
import { writeOfflineCodexHome } from '../../demo/codexHome';
import { demoPrompts, demoResponder } from '../../demo/scenario';
import { startScriptedModel } from '../../demo/scriptedModel';
import { rendererDir } from '../../host/rendererDir';
import { startHost } from '../../host/server';
import type { CliCommand } from '../command';
import { printRefusal, stopAll, untilSignal } from './serve';

export const demo: CliCommand = {
  summary: 'offline demo: real codex and sandbox, scripted model, UI on 127.0.0.1: demo [--port N] [--keep]',
  exits: {
    0: 'stopped (Ctrl-C or TERM)',
    1: 'the demo could not be set up (its folder is removed)',
    2: 'usage error',
    3: 'the start was refused, nothing made (the UI is not built)',
  },
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, keep: { type: 'boolean' } } });
    const port = values.port ? Number(values.port) : 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      // Checked before anything is made: a bad port must not leave a demo instance behind.
      process.stderr.write('angelia demo: --port must be a port number (0 picks a free one)\n');
      return 2;
    }
    let ui: string;
    try {
      ui = rendererDir(process.env);
    } catch (e) {
      printRefusal(e, 'angelia demo');
      return 3;
    }
    const wait = untilSignal();
    const stops: (() => unknown)[] = [];
    const root = await mkdtemp(join(homedir(), '.angelia-demo-'));
    if (!values.keep) stops.push(() => rm(root, { recursive: true, force: true }));
    try {
      const state = join(root, 'state');
      const work = join(root, 'work', 'demo');
      const outsideDir = join(root, 'outside');
      const codexHome = join(root, 'codex-home');
      await mkdir(join(state, 'workspace'), { recursive: true, mode: 0o700 });
      await mkdir(work, { recursive: true });
      await mkdir(outsideDir, { recursive: true });
      const secretPath = join(state, 'env');
      await writeFile(secretPath, 'DEMO_SECRET=if-you-can-read-this-the-sandbox-failed\n', { mode: 0o600 });
      await writeFile(join(work, 'README.md'), '# Demo profile\n\nA folder the demo agent may write.\n');
      await writeFile(
        join(state, 'workspace', 'angelia.toml'),
        `# The demo's table: one profile, held by Codex's sandbox.\n${stringify({ profiles: { demo: { cwd: work, permission_mode: 'default' } } })}`,
      );
      const model = await startScriptedModel({ script: demoResponder({ secretPath, outsideDir }) });
      stops.push(() => model.close());
      await writeOfflineCodexHome(codexHome, { modelBaseUrl: model.baseUrl });
      const env: NodeJS.ProcessEnv = { ...process.env, ANGELIA_STATE_DIR: state, CODEX_HOME: codexHome };
      delete env.ANGELIA_CONFIG;
      const paths = resolveInstance(env);
      // The demo profile is compiled like any other (settings, record, launch guard) before it can start.
      await compileWrite(await loadTable(paths.tableFile, { home: paths.home, env }), ['demo'], await gatherFacts(paths));
      // The core as every host builds it (app/compose.ts), without the loopback API.
      const core = await composeCore({ env, paths, startCodex: startCodexClient });
      stops.push(() => core.close());
      const host = await startHost({ core: core.orchestrator.api(), rendererDir: ui, port });
      stops.push(() => host.close());
      if (wait.received() === null) {
        process.stdout.write(
          [
            `Angelia demo is serving on ${host.url}`,
            `Demo folder: ${root}${values.keep ? ' (kept)' : ' (removed on exit)'}`,
            'Try these in the "demo" chat:',
            ...demoPrompts.map((p) => `  ${p.prompt.padEnd(28)} ${p.shows}`),
            'Ctrl-C stops.',
            '',
          ].join('\n'),
        );
      }
      await wait.signal;
      return 0;
    } catch (e) {
      printRefusal(e, 'angelia demo: the demo could not be set up');
      return 1;
    } finally {
      // The host, the agents, the model, then the folder.
      await stopAll(stops.splice(0).reverse());
      wait.dispose();
    }
  },
};
