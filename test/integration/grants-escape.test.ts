/**
 * The escape through a nested writable folder, on REAL Codex (0.169.0, Linux bubblewrap) with the
 * scripted model making the agent run the attacker's commands (docs/security-model.md "Grants are
 * checked by real path, at compile and at every start"). The chain: a granted folder whose path the
 * agent can change (inside its own folder, created later as a link, or inside a folder another
 * profile's agent writes) is pointed at `<state>/compiled` or `<state>/private`; at the next start
 * Codex follows the link and mounts Angelia's state writable, where the agent could rewrite the
 * accepted table and its launch guard. Measured before the fix (compile/grants.ts): each test's
 * second start let the agent plant a file in `<state>/compiled` (or `<state>/private`). Now compile
 * refuses the grant, and every start checks it again by real path and refuses with the fix.
 *
 * Grants compiled by an older Angelia are emulated by a launch guard that records the write folder
 * (compile itself now refuses to write one).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { gatherFacts } from '../../src/main/core/compile/gather';
import { guardFileSchema, guardPath } from '../../src/main/core/compile/guardFile';
import { compileWrite } from '../../src/main/core/compile/write';
import type { Responder } from '../../src/main/demo/scriptedModel';
import { byProgress } from '../fixtures/byProgress';
import { makeInstance, turnOn, type TestInstance, commandItems, refusalItem, retable } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const commands = commandItems;
const refusal = refusalItem;

/** The launch guard of `profile` as an older Angelia would have left it: also recording `write` (the grant it compiled). */
async function olderGuard(i: TestInstance, profile: string, write: string): Promise<void> {
  const file = guardPath(i.paths.stateDir, profile);
  const guard = guardFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  await writeFile(file, JSON.stringify({ ...guard, write: [...(guard.write ?? []), write].sort() }), { mode: 0o600 });
}

async function start(i: TestInstance): Promise<Orchestrator> {
  orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  return orch;
}

async function restart(i: TestInstance): Promise<Orchestrator> {
  await orch?.shutdown();
  orch = null;
  return start(i);
}

/** What the agent's commands planted in Angelia's state: files named planted* in compiled/ and private/. */
function planted(i: TestInstance): string[] {
  return [i.paths.compiledDir, i.paths.privateDir].flatMap((d) =>
    existsSync(d)
      ? readdirSync(d)
          .filter((n) => n.startsWith('planted'))
          .map((n) => join(d, n))
      : [],
  );
}

/** The second start's probe: write through the granted path, and read the guard there. */
const plant = (dir: string): string => `echo planted > '${join(dir, 'planted.txt')}' && echo PLANTED; ls '${dir}'; exit 0`;

describe('the escape chain through a grant the agent can redirect, on real codex', () => {
  it("an EXISTING add_dir nested in the profile's folder: compile refuses it, and a start with an older guard is refused before the agent runs", async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (b, r) => script(b, r) });
    const cwd = inst.cwd.coder!;
    const build = join(cwd, 'sub', 'build');
    await mkdir(build, { recursive: true });
    const table = await retable(inst, { profiles: { coder: { cwd, permission_mode: 'default', add_dirs: [build] } } });
    // Compile (and so accept) refuses the grant, naming the field and the fix.
    await expect(compileWrite(table, ['coder'], await gatherFacts(inst.paths))).rejects.toMatchObject({
      app: {
        code: 'compile-conflict',
        message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${build} lies in ${cwd}, which this profile's own agent can write`),
      },
    });
    await olderGuard(inst, 'coder', build);

    script = byProgress({
      'swap the folder': [
        { exec: { cmd: `cd '${cwd}' && mv sub sub_old && mkdir sub && ln -s '${inst.paths.compiledDir}' sub/build && echo SWAPPED`, login: false } },
        { message: 'swapped' },
      ],
      'use the folder': [{ exec: { cmd: plant(build), login: false } }, { message: 'done' }],
    });
    const first = await turnOn(await start(inst), 'coder', 'swap the folder');
    // What an earlier run could have left (or, before the fix, what the agent just did): the link in place.
    if (!existsSync(join(cwd, 'sub_old'))) {
      await rename(join(cwd, 'sub'), join(cwd, 'sub_old'));
      await mkdir(join(cwd, 'sub'));
      await symlink(inst.paths.compiledDir, build);
    }
    const second = await turnOn(await restart(inst), 'coder', 'use the folder');
    // Before the fix: SWAPPED, then PLANTED, and <state>/compiled/planted.txt existed.
    expect(planted(inst)).toEqual([]);
    expect(
      commands(second)
        .map((c) => c.output)
        .join(''),
    ).not.toContain('PLANTED');
    // Refused at the first start (the agent never ran) and at the next (the link is refused as well).
    expect(commands(first)).toEqual([]);
    expect(refusal(first)).toMatchObject({ kind: 'refused', message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${build} lies in ${cwd}`) });
    expect(refusal(first)?.message).toContain('Fix: move');
    expect(refusal(second)).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${build} lies in Angelia's private state`),
    });
  });

  it("a MISSING add_dir under the profile's folder, which the agent would create as a link into <state>/private: refused at compile and at start", async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (b, r) => script(b, r) });
    const cwd = inst.cwd.coder!;
    const out = join(cwd, 'out');
    const table = await retable(inst, { profiles: { coder: { cwd, permission_mode: 'default', add_dirs: [out] } } });
    await expect(compileWrite(table, ['coder'], await gatherFacts(inst.paths))).rejects.toMatchObject({
      app: { message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${out} lies in ${cwd}`) },
    });
    await olderGuard(inst, 'coder', out);

    script = byProgress({
      'make the link': [{ exec: { cmd: `ln -s '${inst.paths.privateDir}' '${out}' && echo LINKED`, login: false } }, { message: 'linked' }],
      'use the folder': [{ exec: { cmd: plant(out), login: false } }, { message: 'done' }],
    });
    const first = await turnOn(await start(inst), 'coder', 'make the link');
    const second = await turnOn(await restart(inst), 'coder', 'use the folder');
    // Before the fix: LINKED, then PLANTED, and <state>/private/planted.txt existed.
    expect(planted(inst)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(commands(first)).toEqual([]);
    expect(refusal(first)).toMatchObject({ kind: 'refused', message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${out} lies in ${cwd}`) });
    expect(commands(second)).toEqual([]);
    expect(refusal(second)?.kind).toBe('refused');
  });

  it("a DIRECTORY capability inside the profile's folder: refused at capabilities.<name>.path, at compile and at start", async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: (b, r) => script(b, r) });
    const cwd = inst.cwd.coder!;
    const data = join(cwd, 'shared', 'data');
    await mkdir(data, { recursive: true });
    const table = await retable(inst, {
      capabilities: { data: { kind: 'directory', path: data } },
      profiles: { coder: { cwd, permission_mode: 'default', capabilities: ['data'] } },
    });
    await expect(compileWrite(table, ['coder'], await gatherFacts(inst.paths))).rejects.toMatchObject({
      app: { message: expect.stringContaining(`capabilities.data.path: ${data} lies in ${cwd}`) },
    });
    await olderGuard(inst, 'coder', data);

    script = byProgress({
      'swap the folder': [
        { exec: { cmd: `cd '${cwd}' && mv shared shared_old && mkdir shared && ln -s '${inst.paths.compiledDir}' shared/data && echo SWAPPED`, login: false } },
        { message: 'swapped' },
      ],
      'use the folder': [{ exec: { cmd: plant(data), login: false } }, { message: 'done' }],
    });
    const first = await turnOn(await start(inst), 'coder', 'swap the folder');
    const second = await turnOn(await restart(inst), 'coder', 'use the folder');
    // Before the fix: SWAPPED, then PLANTED, and <state>/compiled/planted.txt existed.
    expect(planted(inst)).toEqual([]);
    expect(commands(first)).toEqual([]);
    expect(refusal(first)).toMatchObject({ kind: 'refused', message: expect.stringContaining(`capabilities.data.path: ${data} lies in ${cwd}`) });
    expect(commands(second)).toEqual([]);
  });

  it("an add_dir inside ANOTHER profile's writable folder: that agent swaps it, and this profile's next start is refused (checked at every start, not only at compile)", async () => {
    let script: Responder = () => ({ message: 'not ready' });
    inst = await makeInstance(
      { coder: { permission_mode: 'default' }, writer: { permission_mode: 'default' } },
      { privateHome: true, script: (b, r) => script(b, r) },
    );
    const data = join(inst.root, 'data');
    const build = join(data, 'build');
    await mkdir(build, { recursive: true });
    const facts = await gatherFacts(inst.paths);
    // coder was compiled while nothing wrote <root>/data; then writer was given <root>/data and compiled.
    const before = await retable(inst, {
      profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'default', add_dirs: [build] }, writer: { cwd: inst.cwd.writer, permission_mode: 'default' } },
    });
    await compileWrite(before, ['coder'], facts);
    const after = await retable(inst, {
      profiles: {
        coder: { cwd: inst.cwd.coder, permission_mode: 'default', add_dirs: [build] },
        writer: { cwd: inst.cwd.writer, permission_mode: 'default', add_dirs: [data] },
      },
    });
    await compileWrite(after, ['writer'], facts);
    // A compile of coder now refuses: its grant lies in a folder writer's agent can write.
    await expect(compileWrite(after, ['coder'], facts)).rejects.toMatchObject({
      app: { message: expect.stringContaining(`profiles.coder.add_dirs[0]: ${build} lies in ${data}, which profile writer's agent can write`) },
    });

    script = byProgress({
      'swap their folder': [
        { exec: { cmd: `cd '${data}' && mv build build_old && ln -s '${inst.paths.compiledDir}' build && echo SWAPPED`, login: false } },
        { message: 'swapped' },
      ],
      'use the folder': [{ exec: { cmd: plant(build), login: false } }, { message: 'done' }],
    });
    const o = await start(inst);
    const swap = await turnOn(o, 'writer', 'swap their folder');
    expect(commands(swap).at(-1)?.output).toContain('SWAPPED');
    const used = await turnOn(o, 'coder', 'use the folder');
    // Before the fix: PLANTED, and <state>/compiled/planted.txt existed.
    expect(planted(inst)).toEqual([]);
    expect(commands(used)).toEqual([]);
    expect(refusal(used)).toMatchObject({ kind: 'refused', message: expect.stringContaining('profiles.coder.add_dirs[0]') });
  });
});
