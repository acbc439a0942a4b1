/**
 * `angelia run`'s early Codex start (core/codex/prespawn.ts): the child started from the chat's last
 * launch is used by `launch()` only when the spec just computed is identical (executable, every argument,
 * cwd, the whole environment); anything else kills it and spawns afresh. A stand-in for Codex (Node,
 * printing its argv and one variable) keeps this a unit test; `angelia run` on real Codex goes through
 * the same `launch()` (test/cli/run-prespawn.test.ts).
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodexClient } from '../../../src/main/core/codex/client';
import { launch, type LaunchedProcess } from '../../../src/main/core/codex/launcher';
import { until } from '../../fixtures/until';
import { waitGone } from './processes';
import { adoptPrespawned, launchMemoryFile, prespawnCodex, prespawnedPid, type PrespawnSpec } from '../../../src/main/core/codex/prespawn';
import { readLaunchMemory, rememberLaunch } from '../../../src/main/core/codex/launchMemory';

let state: string;
let procs: LaunchedProcess[] = [];
beforeEach(() => {
  state = mkdtempSync(join(process.cwd(), '.angelia-test', 'prespawn-'));
});
afterEach(async () => {
  adoptPrespawned({ bin: '', args: [], cwd: '', env: {} });
  for (const p of procs) await p.stop({ graceMs: 500 });
  procs = [];
  rmSync(state, { recursive: true, force: true });
});

/** A stand-in for codex: waits for a line on stdin, then prints its argv and MARK, and exits. */
const SCRIPT =
  "process.stdin.once('data', () => { process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), mark: process.env.MARK ?? null, unset: process.env.DROP ?? null, endpoint: process.env.OPENAI_BASE_URL ?? null, secret: process.env.MCP_SECRET ?? null }) + '\\n'); process.exit(0); });";
const base: NodeJS.ProcessEnv = { ...process.env, DROP: 'from the caller' };
function specOf(over: Partial<PrespawnSpec> = {}): PrespawnSpec {
  const env: NodeJS.ProcessEnv = { ...base, MARK: 'compiled' };
  delete env.DROP;
  return { bin: process.execPath, args: ['-e', SCRIPT, 'app-server'], cwd: state, env, ...over };
}

/** Whether any process, a zombie included, still has `pid` (signal 0). */
function existsPid(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function said(
  p: LaunchedProcess,
): Promise<{ argv: string[]; mark: string | null; unset: string | null; endpoint: string | null; secret: string | null }> {
  let out = '';
  p.stdout.on('data', (c: Buffer) => (out += c.toString()));
  p.stdin.write('go\n');
  await p.exited;
  return JSON.parse(out.trim()) as { argv: string[]; mark: string | null; unset: string | null; endpoint: string | null; secret: string | null };
}

describe("starting Codex from the chat's last launch", () => {
  it('remembers the launch as changes to the environment, privately, and launch() adopts the child when the spec is identical', async () => {
    rememberLaunch(state, 'coder', specOf(), base);
    const memo = JSON.parse(readFileSync(launchMemoryFile(state, 'coder'), 'utf8')) as { set: Record<string, string>; names: string[] };
    expect(memo.set).toEqual({ MARK: 'compiled' });
    expect(memo.names).toContain('MARK');
    expect(memo.names).not.toContain('DROP');

    prespawnCodex(state, 'coder', base);
    const early = prespawnedPid();
    expect(early).not.toBeNull();
    const p = await launch(specOf());
    procs.push(p);
    expect(p.pid).toBe(early);
    expect(prespawnedPid()).toBeNull();
    // Nothing was written to it before adoption: it still waits for its first line, and runs the spec.
    expect(await said(p)).toEqual({ argv: ['app-server'], mark: 'compiled', unset: null, endpoint: null, secret: null });
  });

  it('gives the early child no variable the last launch did not have (an MCP secret set only in this shell, which the plan strips)', async () => {
    rememberLaunch(state, 'coder', specOf(), base);
    prespawnCodex(state, 'coder', { ...base, MCP_SECRET: 'only in this shell' });
    const early = prespawnedPid();
    expect(early).not.toBeNull();
    // The plan strips it too, so the spec is the same and the child is adopted, never having had it.
    const p = await launch(specOf());
    procs.push(p);
    expect(p.pid).toBe(early);
    expect((await said(p)).secret).toBeNull();
  });

  it.each([
    ['an argument', { args: ['-e', SCRIPT, 'other', 'app-server'] }],
    ['the working folder', { cwd: process.cwd() }],
    ['one variable', { env: { ...specOf().env, MARK: 'changed' } }],
    ['an extra variable', { env: { ...specOf().env, EXTRA: '1' } }],
  ])('kills the early child and spawns afresh when %s differs', async (_what, over) => {
    rememberLaunch(state, 'coder', specOf(), base);
    prespawnCodex(state, 'coder', base);
    const early = prespawnedPid()!;
    const want = specOf(over);
    const p = await launch(want);
    procs.push(p);
    expect(p.pid).not.toBe(early);
    expect(await waitGone(early)).toBe(true);
    const out = await said(p);
    expect(out.argv).toEqual(want.args.slice(2));
    expect(out.mark).toBe(want.env.MARK);
  });

  it('never gives the early child a variable every launch strips (an endpoint set only in this shell)', async () => {
    rememberLaunch(state, 'coder', specOf(), base);
    prespawnCodex(state, 'coder', { ...base, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const early = prespawnedPid();
    const p = await launch(specOf());
    procs.push(p);
    expect(p.pid).toBe(early);
    expect((await said(p)).endpoint).toBeNull();
  });

  it('does not adopt a child that already exited, nor start one without a valid memory', async () => {
    rememberLaunch(state, 'coder', specOf({ args: ['-e', 'process.exit(3)', 'app-server'] }), base);
    prespawnCodex(state, 'coder', base);
    const early = prespawnedPid()!;
    expect(await waitGone(early)).toBe(true);
    // Exited and reaped by this process (Node then knows its exit code): not a zombie any more.
    await until('the early child reaped', () => !existsPid(early));
    const p = await launch(specOf({ args: ['-e', 'process.exit(3)', 'app-server'] }));
    procs.push(p);
    expect(p.pid).not.toBe(early);

    prespawnCodex(state, 'nobody', base);
    expect(prespawnedPid()).toBeNull();
    writeFileSync(launchMemoryFile(state, 'coder'), '{"version":1,"bin":5}');
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).toBeNull();
  });

  it('the memory is a checked state file: what is remembered reads back through its schema, mode 600; another shape reads as none', async () => {
    const { statSync } = await import('node:fs');
    rememberLaunch(state, 'coder', specOf(), base);
    const memo = readLaunchMemory(state, 'coder');
    expect(memo).toMatchObject({ version: 3, bin: process.execPath, cwd: state, set: { MARK: 'compiled' } });
    expect(memo?.stamps.map((s) => s.path)).toEqual([process.execPath]);
    expect(statSync(launchMemoryFile(state, 'coder')).mode & 0o777).toBe(0o600);
    writeFileSync(launchMemoryFile(state, 'coder'), '{"version":2,"bin":"x"}');
    expect(readLaunchMemory(state, 'coder')).toBeNull();
    expect(readLaunchMemory(state, 'nobody')).toBeNull();
  });

  it('an early child that dies just before adoption (not yet reaped) is replaced by a fresh spawn, and the start succeeds', async () => {
    const fake = join(process.cwd(), 'test', 'fixtures', 'fake-app-server.mjs');
    const spec: PrespawnSpec = { bin: process.execPath, args: [fake, 'app-server'], cwd: state, env: { ...process.env } };
    rememberLaunch(state, 'coder', spec, process.env);
    prespawnCodex(state, 'coder', process.env);
    const early = prespawnedPid()!;
    expect(early).not.toBeNull();
    // Killed now: Node learns of the exit only on a later turn of its loop, so launch() still adopts it.
    process.kill(early, 'SIGKILL');
    const client = await CodexClient.start(spec);
    try {
      expect(client.pid).not.toBe(early);
      expect(client.initializeResult.userAgent).toMatch(/^angelia\//);
    } finally {
      await client.stop();
    }
  });

  it('starts nothing early once a file the launch was planned from has changed (an accept, a compile)', async () => {
    const table = join(state, 'accepted.toml');
    writeFileSync(table, '[profiles.coder]\n');
    rememberLaunch(state, 'coder', specOf(), base, [table]);
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).not.toBeNull();
    adoptPrespawned({ bin: '', args: [], cwd: '', env: {} });
    // Rewritten as accept does it (a new file renamed over): nothing early any more, until the next launch is remembered.
    writeFileSync(`${table}.tmp`, '[profiles.coder]\nadd_dirs = []\n');
    renameSync(`${table}.tmp`, table);
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).toBeNull();
    rememberLaunch(state, 'coder', specOf(), base, [table]);
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).not.toBeNull();
  });
});

describe('the executable itself is part of the memory (it runs before any check of the start)', () => {
  it('starts nothing early once the executable changed, even rewritten in place with its size and mtime kept back', async () => {
    const { chmodSync, statSync, utimesSync } = await import('node:fs');
    const bin = join(state, 'codex');
    const body = (tag: string): string => `#!/bin/sh\n# ${tag}\nexec '${process.execPath}' "$@"\n`;
    writeFileSync(bin, body('one'));
    chmodSync(bin, 0o755);
    rememberLaunch(state, 'coder', specOf({ bin }), base);
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).not.toBeNull();
    adoptPrespawned({ bin: '', args: [], cwd: '', env: {} });
    // What an agent that can write the file could do: same size, same inode, mtime set back.
    const before = statSync(bin);
    writeFileSync(bin, body('two'));
    utimesSync(bin, before.atime, before.mtime);
    expect(statSync(bin).size).toBe(before.size);
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).toBeNull();
  });

  it('a memory from before the executable was remembered starts nothing early', () => {
    rememberLaunch(state, 'coder', specOf(), base);
    const file = launchMemoryFile(state, 'coder');
    const memo = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...memo, version: 2, stamps: [] }));
    prespawnCodex(state, 'coder', base);
    expect(prespawnedPid()).toBeNull();
  });
});
