/**
 * What runs OUTSIDE the sandbox, on real Codex (0.169.0, Linux bubblewrap) with the scripted model
 * (docs/security-model.md "What runs outside the sandbox (loosenings)"):
 *
 * - a profile's `bin` or an MCP server's `command` in a folder another profile's agent writes: that agent
 *   rewrites the file, and the next start runs its code with the user's full access. Measured before the
 *   fix: the planted script ran (it wrote `<root>/pwned`, a folder no sandbox may write). Now compile
 *   refuses it and every start checks it again by real path (compile/grants.ts).
 * - an MCP server given, or a `bin` changed, by `accept` alone: a loosening that waits for
 *   `angelia compile --write` like `sandbox = false` does (the launch guard records both; a guard from
 *   before fails closed). Measured before the fix: the server started at the next start without a compile.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { planLaunch } from '../../src/main/core/launch/plan';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { gatherFacts } from '../../src/main/core/compile/gather';
import { guardFileSchema, guardPath } from '../../src/main/core/compile/guardFile';
import { compileWrite } from '../../src/main/core/compile/write';
import type { LoadedTable } from '../../src/main/core/table/load';
import type { Step } from '../../src/main/demo/scriptedSteps';
import { pinnedCodexBin } from '../fixtures/bareCodexClient';
import { makeInstance, turnOn, type TestInstance, commandItems, refusalItem, retable } from '../fixtures/instance';
import { until } from '../fixtures/until';

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

/** Edits `profile`'s launch guard (as an older compile would have left it). */
async function editGuard(i: TestInstance, profile: string, edit: (g: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const file = guardPath(i.paths.stateDir, profile);
  await writeFile(file, JSON.stringify(edit(guardFileSchema.parse(JSON.parse(await readFile(file, 'utf8'))) as Record<string, unknown>)), { mode: 0o600 });
}

async function start(i: TestInstance): Promise<Orchestrator> {
  orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  return orch;
}

/** A scripted model whose turn is the k-th step for k tool outputs so far. */
function stepper(): { steps: Step[]; script: (body: { input?: unknown }) => Step } {
  const steps: Step[] = [];
  return {
    steps,
    script: (body) =>
      steps[
        Math.min((Array.isArray(body.input) ? body.input : []).filter((it: { type?: string }) => it.type === 'function_call_output').length, steps.length - 1)
      ] ?? { message: 'not ready' },
  };
}

describe("bin and MCP commands in a folder another profile's agent writes", () => {
  it("a bin in writer's folder: compile refuses it, and when writer's agent rewrites it, coder's start is refused (the planted code never runs)", async () => {
    const s = stepper();
    inst = await makeInstance(
      { coder: { permission_mode: 'bypassPermissions' }, writer: { permission_mode: 'bypassPermissions' } },
      { privateHome: true, script: s.script },
    );
    const tools = join(inst.cwd.writer!, 'tools');
    const bin = join(tools, 'codex');
    const pwned = join(inst.root, 'pwned');
    await mkdir(tools);
    await writeFile(bin, `#!/bin/sh\nexec '${pinnedCodexBin()}' "$@"\n`);
    await chmod(bin, 0o755);
    const table = await retable(inst, {
      profiles: {
        coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', bin },
        writer: { cwd: inst.cwd.writer, permission_mode: 'bypassPermissions' },
      },
    });
    await expect(compileWrite(table, ['coder'], await gatherFacts(inst.paths))).rejects.toMatchObject({
      app: { message: expect.stringContaining(`profiles.coder.bin: the Codex executable (bin) ${bin} lies in ${inst.cwd.writer}`) },
    });
    // As an older compile left it: coder compiled with that bin.
    await editGuard(inst, 'coder', (g) => ({ ...g, bin }));

    s.steps.push(
      { exec: { cmd: `printf '#!/bin/sh\\necho ran > ${pwned}\\nexec ${pinnedCodexBin()} "$@"\\n' > '${bin}' && echo REWRITTEN; exit 0` } },
      { message: 'done' },
    );
    const o = await start(inst);
    expect(commands(await turnOn(o, 'writer', 'rewrite the tool')).at(-1)?.output).toContain('REWRITTEN');
    const coder = await turnOn(o, 'coder', 'hello');
    // Before the fix: coder's start ran the rewritten script, which wrote <root>/pwned.
    expect(existsSync(pwned)).toBe(false);
    expect(refusal(coder)).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(`profiles.coder.bin: the Codex executable (bin) ${bin} lies in ${inst.cwd.writer}`),
    });
  });

  it("an MCP server's command in writer's folder: compile refuses capabilities.<name>.command, and coder's start is refused", async () => {
    const s = stepper();
    inst = await makeInstance(
      { coder: { permission_mode: 'bypassPermissions' }, writer: { permission_mode: 'bypassPermissions' } },
      { privateHome: true, script: s.script },
    );
    const server = join(inst.cwd.writer!, 'server.sh');
    const pwned = join(inst.root, 'pwned');
    await writeFile(server, '#!/bin/sh\nexec sleep 30\n');
    await chmod(server, 0o755);
    const table = await retable(inst, {
      capabilities: { tool: { kind: 'mcp', command: server } },
      profiles: {
        coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', capabilities: ['tool'] },
        writer: { cwd: inst.cwd.writer, permission_mode: 'bypassPermissions' },
      },
    });
    const facts = await gatherFacts(inst.paths);
    await expect(compileWrite(table, ['coder'], facts)).rejects.toMatchObject({
      app: { message: expect.stringContaining(`capabilities.tool.command: the command of MCP capability tool ${server} lies in ${inst.cwd.writer}`) },
    });
    // As an older compile left it: coder compiled with that server.
    const plain = await retable(inst, {
      profiles: {
        coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions' },
        writer: { cwd: inst.cwd.writer, permission_mode: 'bypassPermissions' },
      },
    });
    await compileWrite(plain, ['coder'], facts);
    await retable(inst, {
      capabilities: { tool: { kind: 'mcp', command: server } },
      profiles: {
        coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', capabilities: ['tool'] },
        writer: { cwd: inst.cwd.writer, permission_mode: 'bypassPermissions' },
      },
    });
    await editGuard(inst, 'coder', (g) => ({ ...g, mcp: [`tool ${JSON.stringify({ command: server, args: [], url: null, env: [] })}`] }));

    s.steps.push({ exec: { cmd: `printf '#!/bin/sh\\necho ran > ${pwned}\\nexec sleep 30\\n' > '${server}' && echo REWRITTEN; exit 0` } }, { message: 'done' });
    const o = await start(inst);
    expect(commands(await turnOn(o, 'writer', 'rewrite the server')).at(-1)?.output).toContain('REWRITTEN');
    const coder = await turnOn(o, 'coder', 'hello');
    // Before the fix: Codex started the rewritten server outside the sandbox, which wrote <root>/pwned.
    expect(existsSync(pwned)).toBe(false);
    expect(refusal(coder)).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(`capabilities.tool.command: the command of MCP capability tool ${server} lies in ${inst.cwd.writer}`),
    });
  });
});

describe('MCP servers and bin are loosenings: they wait for compile --write', () => {
  it('an MCP capability given by the accepted table alone does not start: the start is refused with the fix until compile --write', async () => {
    const s = stepper();
    inst = await makeInstance({ coder: { permission_mode: 'bypassPermissions' } }, { privateHome: true, script: s.script });
    s.steps.push({ message: 'hello back' });
    const started = join(inst.root, 'mcp-started');
    const withServer = await retable(inst, {
      capabilities: { probe: { kind: 'mcp', command: '/bin/sh', args: ['-c', `echo started >> '${started}'; exec sleep 30`] } },
      profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', capabilities: ['probe'] } },
    });
    // Compiled before the capability was given (makeInstance); the table now gives it.
    const o = await start(inst);
    const refused = await turnOn(o, 'coder', 'hello');
    // Before the fix: the server started (mcp-started was written) and the turn ran.
    expect(refusal(refused)).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(
        'the accepted table now gives this profile 1 MCP server(s) the last compile did not (probe); MCP servers run outside the sandbox',
      ),
    });
    expect(refusal(refused)?.message).toContain('Fix: angelia compile --write coder');
    expect(existsSync(started)).toBe(false);

    // angelia compile --write coder: now it starts, with its server.
    await compileWrite(withServer, ['coder'], await gatherFacts(inst.paths));
    await o.shutdown();
    const again = await turnOn(await start(inst), 'coder', 'hello');
    expect(again.find((i) => i.type === 'agent')).toMatchObject({ text: 'hello back' });
    await until('the MCP server started', () => existsSync(started));
  });

  it('a bin changed by the accepted table alone refuses the start until compile --write; an older guard without mcp/bin fails closed', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'bypassPermissions' } }, { privateHome: true });
    const input = (table: LoadedTable) => ({ table, profile: 'coder', chatId: 'coder', paths: inst!.paths, env: inst!.env });
    const bin = pinnedCodexBin();
    const changed = await retable(inst, { profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'bypassPermissions', bin } } });
    await expect(planLaunch(input(changed))).rejects.toMatchObject({
      app: {
        code: 'refused',
        message: expect.stringContaining(`the accepted table now runs the Codex executable ${bin} (bin), but the last compile recorded the bundled one`),
        fix: 'angelia compile --write coder',
      },
    });
    await compileWrite(changed, ['coder'], await gatherFacts(inst.paths));
    await expect(planLaunch(input(changed))).resolves.toMatchObject({ spawn: { bin } });

    // A guard written before `bin` and `mcp` were recorded: fail closed for a profile that has them.
    await editGuard(inst, 'coder', ({ bin: _bin, mcp: _mcp, ...rest }) => rest);
    await expect(planLaunch(input(changed))).rejects.toMatchObject({
      app: {
        code: 'refused',
        message: expect.stringContaining('the last compile did not record which Codex executable this profile runs'),
        fix: 'angelia compile --write coder',
      },
    });
  });
});
