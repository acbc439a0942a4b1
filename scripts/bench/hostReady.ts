/**
 * Headless host ready: how long `angelia serve` takes from spawn until it serves. Each run spawns
 * `node bin/angelia.js serve --port 0` on a throw-away instance (one compiled profile; no agent starts,
 * agents start lazily) and stamps, on this process's clock:
 *  - ready line: its stdout carries "Angelia is serving on http://127.0.0.1:PORT/#token=…" (printed once
 *    the HTTP listener, the API socket and the orchestrator are up);
 *  - first HTTP answer: `GET /` of that address (sent as soon as the line is read) answered 200 with the
 *    renderer's index.html — what "ready to serve" means here.
 * Then SIGTERM and wait for the exit (not timed). Context series, interleaved: `node -e 0` (Node's own
 * start-up) and `node bin/angelia.js version` (start-up + loading the CLI).
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeInstance } from '../../test/fixtures/instance';
import { sectionHead, loadLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series, type Verdict } from './benchmark';
import { failureReason, timeRun } from './proc';

/** The target, ms (spawn → first HTTP answer, median). */
export const READY_TARGET_MS = 300;

/** GET `url` (path and port only); resolves with the status code. */
function get(url: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(u.port), path: '/', method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

interface ServeRun {
  lineMs?: number;
  httpMs?: number;
  error?: string;
}

/** One `angelia serve` run: spawn → ready line → GET / answered → SIGTERM → exit. */
function serveOnce(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ServeRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let result: ServeRun | null = null;
    const finish = (r: ServeRun): void => {
      if (result) return;
      result = r;
      clearTimeout(timer);
      child.kill('SIGTERM');
    };
    const timer = setTimeout(() => finish({ error: `no ready line within 60 s; stderr: ${err.slice(-300)}` }), 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/)\S*/);
      if (!m || result) return;
      const lineMs = performance.now() - t0;
      get(m[1] as string).then(
        (status) => finish(status === 200 ? { lineMs, httpMs: performance.now() - t0 } : { lineMs, error: `GET / answered ${status}` }),
        (e: Error) => finish({ lineMs, error: `GET / failed: ${e.message}` }),
      );
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err = (err + c).slice(-4000);
    });
    child.on('exit', (code) => {
      if (!result) finish({ error: `exited (${code}) before serving: ${err.slice(-300)}` });
      resolve(result as ServeRun);
    });
  });
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const inst = await makeInstance({ bench: { permission_mode: 'default' } }, { privateHome: true });
  try {
    const shown = relative(ctx.root, ctx.angeliaBin);
    const L: Series = { label: `\`node ${shown} serve\`: spawn → "serving on …" line`, samplesMs: [], failures: [] };
    const H: Series = { label: `\`node ${shown} serve\`: spawn → first HTTP answer (GET / 200)`, samplesMs: [], failures: [] };
    const N: Series = { label: 'context: `node -e 0` (Node start-up)', samplesMs: [], failures: [] };
    const V: Series = { label: `context: \`node ${shown} version\` (start-up + CLI load)`, samplesMs: [], failures: [] };
    ctx.log('host-ready: warm-up');
    const warm = await serveOnce(ctx.angeliaBin, ctx.root, inst.env);
    if (warm.error) {
      L.unavailable = warm.error;
      H.unavailable = warm.error;
    }
    const runs = Math.max(ctx.runs, ctx.quick ? 3 : 9);
    for (let i = 0; i < runs; i += 1) {
      ctx.log(`host-ready: round ${i + 1}/${runs}`);
      if (!L.unavailable) {
        const r = await serveOnce(ctx.angeliaBin, ctx.root, inst.env);
        if (r.lineMs !== undefined) L.samplesMs.push(r.lineMs);
        if (r.httpMs !== undefined) H.samplesMs.push(r.httpMs);
        else H.failures.push(r.error ?? 'no answer');
      }
      const n = await timeRun(process.execPath, ['-e', '0'], { cwd: ctx.root, env: inst.env });
      if (n.code === 0) N.samplesMs.push(n.ms);
      else N.failures.push(failureReason(n));
      const v = await timeRun(process.execPath, [ctx.angeliaBin, 'version'], { cwd: ctx.root, env: inst.env });
      if (v.code === 0) V.samplesMs.push(v.ms);
      else V.failures.push(failureReason(v));
    }
    const sh = stats(H.samplesMs);
    const sn = stats(N.samplesMs);
    const verdicts: Verdict[] = [
      {
        target: `headless host ready to serve ≤ ${READY_TARGET_MS} ms after start (median, spawn → first HTTP answer)`,
        measured: sh ? `${ms(sh.median)} ms (min ${ms(sh.min)}, max ${ms(sh.max)}; Node's own start-up ${sn ? ms(sn.median) : '?'} ms)` : 'nothing',
        pass: sh ? sh.median <= READY_TARGET_MS : undefined,
      },
    ];
    const load = loadLine(loadAtStart, loadavg());
    const markdown = [
      ...sectionHead('Headless host ready: `angelia serve` start → first HTTP answer', ctx.machine, load, verdicts),
      `Method: ${runs} runs after one unmeasured warm-up, interleaved with the context rows. Each run spawns \`node ${shown} serve --port 0\` on a throw-away ` +
        'instance with one compiled profile (agents start lazily, so no Codex runs), waits for the "serving on" line on stdout, then sends `GET /` to that ' +
        'address; "ready" is the 200 answer (the renderer\'s index.html). Wall time from spawn, ms; the process is then stopped with SIGTERM (not timed).',
      '',
      seriesTable([H, L, N, V]),
    ].join('\n');
    const line = (s: Series): string => {
      const st = stats(s.samplesMs);
      return st
        ? `${s.label}: median ${ms(st.median)} ms (${ms(st.min)}–${ms(st.max)}, n=${st.n})${s.failures.length ? `, ${s.failures.length} failed: ${s.failures[0]}` : ''}`
        : `${s.label}: ${s.unavailable ?? s.failures[0] ?? 'no samples'}`;
    };
    return { markdown, verdicts, summary: [line(H), line(L), line(N), line(V), load].join('\n') };
  } finally {
    await inst.cleanup();
  }
}

/** The host-ready benchmark module. */
export const hostReady: Benchmark = { id: 'host-ready', title: 'Headless host ready (angelia serve → first HTTP answer)', run };
