/**
 * Within ONE session, on real Codex (0.169.0, Linux bubblewrap) with the scripted model: does Codex
 * resolve a grant once per session, or again for every command? Measured here (docs/security-model.md
 * "Grants are checked by real path, at compile and at every start"):
 *
 * - Codex itself (a bare `codex app-server` with the flags compile makes for a profile whose add_dir
 *   `<cwd>/sub/build` lies in its own folder, which Angelia now refuses): after
 *   `mv sub sub_old && mkdir sub && ln -s <outside> sub/build` in one command, the NEXT command of the
 *   same turn writes into `<outside>`: the grant is resolved again, following the link, for every
 *   command. The granted folder itself (a mount point) cannot be renamed ("Device or resource busy");
 *   the folder above it can.
 * - So no start-time check can close this window alone; the rule does: no grant lies in a folder any
 *   agent can write. With a grant whose parent no agent writes, the agent cannot rename the grant, its
 *   parent or anything above, in the same session or later, and its writes stay in the real folder.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { launchFacts } from '../../src/main/core/launch/plan';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { cacheDirFor } from '../../src/main/core/compile/cache';
import { ensureCacheDirs, ensureSandboxPlaceholders, ensureStateFolders } from '../../src/main/core/launch/prepare';
import { compileCodexLaunch } from '../../src/main/core/compile/codexProfile';
import { loadTable } from '../../src/main/core/table/load';
import type { Step } from '../../src/main/demo/scriptedSteps';
import { BareCodex, runTurn } from '../fixtures/bareCodex';
import { writeCompiled } from '../fixtures/compiled';
import { makeInstance, turnOn, type TestInstance, commandItems } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
let bare: BareCodex | null = null;
afterEach(async () => {
  await bare?.close();
  bare = null;
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const commands = commandItems;

describe('a grant swapped for a link between two commands of one turn', () => {
  it('codex 0.169.0 resolves the grant again for the next command and follows the link (measured on a bare app-server)', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'bypassPermissions' } }, { privateHome: true });
    const cwd = inst.cwd.coder!;
    const build = join(cwd, 'sub', 'build');
    await mkdir(build, { recursive: true });
    await writeFile(inst.paths.tableFile, stringify({ profiles: { coder: { cwd, permission_mode: 'bypassPermissions', add_dirs: [build] } } }));
    const table = await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env });
    await ensureStateFolders(inst.paths.stateDir);
    // The flags compile makes (compileCodexLaunch does not run the grant check; planLaunch would refuse).
    const launch = compileCodexLaunch(table, 'coder', await launchFacts(inst.paths));
    await ensureCacheDirs(launch.cacheDir!);
    await ensureSandboxPlaceholders(launch.writableRoots);
    inst.model.enqueue(
      { exec: { cmd: `touch '${build}/a' && echo A-WRITTEN; touch '${inst.outside}/direct' && echo OUTSIDE-DIRECT; exit 0` } },
      { exec: { cmd: `cd '${cwd}' && mv sub/build sub/b2; mv sub sub_old && mkdir sub && ln -s '${inst.outside}' sub/build && echo SWAPPED; exit 0` } },
      { exec: { cmd: `touch '${build}/b' && echo B-WRITTEN; exit 0` } },
      { message: 'done' },
    );
    bare = BareCodex.spawn({ codexHome: inst.paths.codexHome, cwd, args: launch.codexArgs.slice(0, -1), env: { HOME: inst.paths.home, ...launch.env } });
    await bare.initialize();
    const { thread } = await bare.request<{ thread: { id: string } }>('thread/start', { cwd, approvalPolicy: 'never', approvalsReviewer: 'user' });
    const turn = await runTurn(bare, thread.id, 'swap it');
    expect(turn.status).toBe('completed');
    const out = turn.items.filter((i) => i.type === 'commandExecution').map((i) => String(i.aggregatedOutput));
    expect(out[0]).toContain('A-WRITTEN');
    expect(out[0]).not.toContain('OUTSIDE-DIRECT');
    // The granted folder is a mount point: not renamed. The folder above it is.
    expect(out[1]).toMatch(/cannot move 'sub\/build' to 'sub\/b2': Device or resource busy/);
    expect(out[1]).toContain('SWAPPED');
    // The next command of the same turn: the grant now opens the link's target.
    expect(out[2]).toContain('B-WRITTEN');
    expect(await readdir(inst.outside)).toEqual(['b']);
  });

  it('with a grant no agent can redirect (its parent granted to none), the agent can neither rename it nor anything above it, in the same session', async () => {
    // bypassPermissions: Codex never offers to rerun a failed command outside the sandbox. Steps by
    // progress (the k-th step answers the request carrying k tool outputs), not by a queue.
    const steps: Step[] = [];
    inst = await makeInstance(
      { coder: { permission_mode: 'bypassPermissions' } },
      {
        privateHome: true,
        script: (body) =>
          steps[Math.min((Array.isArray(body.input) ? body.input : []).filter((it) => it.type === 'function_call_output').length, steps.length - 1)] ?? {
            message: 'not ready',
          },
      },
    );
    const data = join(inst.root, 'data');
    const build = join(data, 'build');
    await mkdir(build, { recursive: true });
    await writeFile(inst.paths.tableFile, stringify({ profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', add_dirs: [build] } } }));
    await writeCompiled(inst.paths, await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env }));
    steps.push(
      {
        exec: {
          cmd: `mv '${build}' '${data}/b2'; mv '${data}' '${inst.root}/data2'; rmdir '${build}'; ln -s '${inst.outside}' '${data}/build2' && echo LINKED; exit 0`,
        },
      },
      { exec: { cmd: `touch '${build}/x' && echo X-WRITTEN; exit 0` } },
      { message: 'done' },
    );
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
    const items = await turnOn(orch, 'coder', 'try to swap it');
    const [swap, write] = commands(items);
    expect(swap?.output).toMatch(/cannot move .*build.* Device or resource busy|Read-only file system/);
    expect(swap?.output).not.toContain('LINKED');
    expect(write?.output).toContain('X-WRITTEN');
    expect(await readdir(build)).toContain('x');
    expect(await readdir(data)).toEqual(['build']);
    expect(await readdir(inst.outside)).toEqual([]);
  });

  it("the agent's TMPDIR cannot be swapped for a link: Codex, outside the sandbox, would put its own temporary files where the link leads", async () => {
    // Measured before the fix (permission profile from grants, TMPDIR an ordinary folder in the cache):
    // the swap succeeded and Codex created `codex-bwrap-synthetic-mount-targets-0` in the link's target.
    const steps: Step[] = [];
    inst = await makeInstance(
      { coder: { permission_mode: 'bypassPermissions' } },
      {
        privateHome: true,
        script: (body) =>
          steps[Math.min((Array.isArray(body.input) ? body.input : []).filter((it) => it.type === 'function_call_output').length, steps.length - 1)] ?? {
            message: 'not ready',
          },
      },
    );
    const tmp = join(cacheDirFor(inst.paths.stateDir, 'coder'), 'tmp');
    steps.push(
      { exec: { cmd: `mv '${tmp}' '${tmp}.old' && ln -s '${inst.outside}' '${tmp}' && echo SWAPPED; exit 0` } },
      { exec: { cmd: `echo next > "$TMPDIR/mine" && echo WROTE; exit 0` } },
      { message: 'done' },
    );
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
    const [swap, next] = commands(await turnOn(orch, 'coder', 'swap the temp folder'));
    expect(await readdir(inst.outside)).toEqual([]);
    expect(swap?.output).toMatch(/Device or resource busy/);
    expect(swap?.output).not.toContain('SWAPPED');
    expect(next?.output).toContain('WROTE');
    expect(await readdir(tmp)).toContain('mine');
  });
});
