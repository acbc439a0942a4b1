/**
 * The `angelia` entry (src/main/cli/index.ts) on the built CLI: `<command> --help` prints the command's
 * usage line and exits 0; an unknown option is a usage error (exit 2) that names the option and shows
 * the usage line, for every command (a clone tester saw `run --help` exit 1 with "Unknown option").
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/main/cli/commands';

const BIN = join(resolve(__dirname, '../..'), 'bin/angelia.js');

function angelia(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ANGELIA_STATE_DIR: '/nonexistent-angelia-state' }, timeout: 30_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('angelia <command> --help and bad options', () => {
  it('prints each command its usage line with exit 0', async () => {
    for (const [name, command] of Object.entries(commands)) {
      const run = await angelia([name, '--help']);
      expect(run.code, name).toBe(0);
      expect(run.stdout).toBe(`angelia ${name}: ${command.summary}\n`);
    }
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
