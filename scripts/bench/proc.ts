/** Timing a child process from spawn to exit (wall clock, milliseconds). */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** How one child run ended. */
export interface TimedRun {
  /** spawn → exit, milliseconds (monotonic clock). */
  ms: number;
  /** Exit code; null when killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `cmd args` with stdin closed, collects output, SIGKILLs after `timeoutMs` (default 120 s). */
export function timeRun(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<TimedRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-8000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code: null, stdout, stderr: `${stderr}${e.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code, stdout, stderr, timedOut });
    });
  });
}

/** A short one-line reason from a failed run (first meaningful stderr/stdout line). */
export function failureReason(r: TimedRun): string {
  if (r.timedOut) return 'timed out';
  const text = `${r.stderr}\n${r.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return `exit ${r.code}: ${text.slice(0, 2).join(' / ').slice(0, 240) || '(no output)'}`;
}
