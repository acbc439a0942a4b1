/**
 * The `angelia` entry (src/main/cli/index.ts) on the built CLI: `<command> --help` prints the command's
 * usage line, its options (export: `--force` among them) and its exit codes (the shared table of
 * cli/exit.ts) and exits 0; `--version` / `-v` are
 * `angelia version`; an unknown option is a usage error (exit 2) that names the option and shows
 * the usage line, for every command (a clone tester saw `run --help` exit 1 with "Unknown option").
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/main/cli/commands';
import { commandHelpText } from '../../src/main/cli/exit';

const BIN = join(resolve(__dirname, '../..'), 'bin/angelia.js');

function angelia(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ANGELIA_STATE_DIR: '/nonexistent-angelia-state' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

describe('angelia <command> --help and bad options', () => {
  it('prints each command its usage line and its exit codes with exit 0', async () => {
    for (const [name, command] of Object.entries(commands)) {
      const run = await angelia([name, '--help']);
      expect(run.code, name).toBe(0);
      expect(run.stdout).toBe(commandHelpText(name, command));
      expect(run.stdout, name).toContain(`angelia ${name}: ${command.summary}\n`);
      expect(run.stdout, name).toMatch(/^exit codes:\n {2}0 {2}\S/m);
    }
    // The shared table: 2 is usage or an unknown name wherever a name is taken; 3 a refused start.
    expect((await angelia(['run', '--help'])).stdout).toBe(
      [
        `angelia run: ${commands.run!.summary}`,
        'exit codes:',
        '  0  the turn completed',
        '  1  the turn failed',
        '  2  usage error, or an unknown profile or chat',
        '  3  the start was refused (the reason on stderr, and in the last JSON line with --json)',
        '',
      ].join('\n'),
    );
    for (const name of ['export', 'compile', 'verify', 'send', 'turn', 'ask', 'send-media']) expect(commands[name]!.exits[2], name).toMatch(/unknown|no such/);
    for (const name of ['run', 'serve', 'export']) expect(commands[name]!.exits[3], name).toMatch(/^the start was refused/);
  });

  it('export --help names every option, --force with what it does', async () => {
    const run = await angelia(['export', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[--out <file> [--force]]');
    expect(run.stdout).toMatch(/\n {2}--force +with --out: replace an existing file\n/);
    for (const option of ['--all', '--session', '--format', '--tools', '--out']) expect(run.stdout).toMatch(new RegExp(`\\n {2}${option}\\b`));
  });

  it('angelia --version and -v print what angelia version prints', async () => {
    const version = await angelia(['version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^angelia \d+\.\d+\.\d+\S*\n$/);
    for (const flag of ['--version', '-v']) expect(await angelia([flag])).toEqual(version);
    const usage = await angelia(['--help']);
    expect(usage.stdout).toContain('angelia --version');
    expect(usage.stdout).toContain('exit codes:\n  0  done\n');
  });

  it('answers an unknown option with exit 2 and the option named (run: with its usage line)', async () => {
    for (const name of ['run', 'export', 'compile', 'serve', 'demo']) {
      const run = await angelia([name, '--no-such-option']);
      expect(run.code, name).toBe(2);
      expect(run.stderr).toContain("'--no-such-option'");
    }
    expect((await angelia(['run', '--no-such-option'])).stderr).toContain(`usage: angelia run: ${commands.run!.summary}`);
  });

  it('names a bad value before anything starts: run --approve, demo --port', async () => {
    const run = await angelia(['run', 'coder', 'hi', '--approve', 'maybe']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('angelia run: --approve must be ask, allow or deny (got "maybe")\n');
    const demo = await angelia(['demo', '--port', '99999']);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toBe('angelia demo: --port must be a port number (0 picks a free one)\n');
  });
});
