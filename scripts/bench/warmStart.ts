/**
 * Warm agents at app start, on the headless host (docs/architecture.md "Warm agents"): `angelia serve`
 * on an instance whose 10 chats each have a past session, with `[defaults] warm_agents = 10`. At start it
 * warms all 10 (their agents started, proved and their threads resumed, no message sent). Measured per
 * run: spawn → "serving on" (the host ready: the app-start-to-tray figure where there is no tray),
 * spawn → first HTTP answer, spawn → all 10 agents attested (`chats:list` over the host's WebSocket
 * shows each chat's mode `attested`), and then the serve process's own memory (VmRSS, VmHWM; its
 * children are separate processes) and the 10 app-servers' summed RSS.
 */
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { makeInstance, turnOn } from '../../test/fixtures/instance';
import { sectionHead, loadLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series, type Verdict } from './benchmark';
import { appServerChildren, memoryOf, RSS_TARGET_MB, startServe } from './manyAgents';

/** Warm agents at start. */
export const WARM_AGENTS = 10;
/** host-ready's target, ms (for reference). */
export const READY_TARGET_MS = 300;
/** Host ready with warming on / off (medians) at most this. */
export const DELAY_TARGET = 1.1;

const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

/** One invoke over the host's WebSocket (the served UI's channel); resolves with its Result. */
function invoke(url: string, channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown }> {
  const u = new URL(url);
  const token = new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${u.host}/ws?token=${encodeURIComponent(token)}`, { headers: { origin: `http://${u.host}` } });
    const timer = setTimeout(() => (ws.close(), reject(new Error('no answer in 10 s'))), 10_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel, input })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; id?: unknown; result?: { ok: boolean; value?: unknown } };
      if (m.type !== 'result' || m.id !== 1) return;
      clearTimeout(timer);
      ws.close();
      resolve(m.result ?? { ok: false });
    });
    ws.on('error', (e) => (clearTimeout(timer), reject(e)));
  });
}

/** Resolves with the status of `GET url`. */
function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => get(url, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject));
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const runs = ctx.quick ? 1 : 3;
  const names = Array.from({ length: WARM_AGENTS }, (_, i) => `w${String(i + 1).padStart(2, '0')}`);
  const profiles = Object.fromEntries(names.map((n) => [n, { permission_mode: 'default' }]));
  const inst = await makeInstance(profiles, {
    privateHome: true,
    script: () => ({ message: 'Short answer from the scripted model.' }),
    defaults: { warm_agents: WARM_AGENTS, warm_memory_mb: 8192 },
  });
  // The same table with warming off (no past sessions needed: nothing would start), interleaved, for the host figures.
  const cold = await makeInstance(profiles, { privateHome: true, defaults: { warm_agents: 0 } });
  const readyOff: Series = { label: 'context: the same with `warm_agents = 0`: spawn → "serving on"', samplesMs: [], failures: [] };
  const ready: Series = { label: '`angelia serve` spawn → "serving on" (host ready; warming begins)', samplesMs: [], failures: [] };
  const http: Series = { label: '`angelia serve` spawn → first HTTP answer (GET / 200)', samplesMs: [], failures: [] };
  const warm: Series = {
    label: `\`angelia serve\` spawn → all ${WARM_AGENTS} agents attested (threads resumed, no message sent)`,
    samplesMs: [],
    failures: [],
  };
  const rss: number[] = [];
  const hwm: number[] = [];
  const children: number[] = [];
  const requestsAfter: number[] = [];
  try {
    // Phase 1: a past session in each chat (one turn each), in this process.
    ctx.log(`warm-start: a turn in each of ${WARM_AGENTS} chats`);
    const o = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
    try {
      await Promise.all(names.map((n) => turnOn(o, n, 'hello')));
    } finally {
      await o.shutdown();
    }
    const before = inst.model.modelRequests().length;
    const off = async (record = true): Promise<void> => {
      const t0 = performance.now();
      const serve = await startServe(ctx.angeliaBin, ctx.root, cold.env);
      if (record) readyOff.samplesMs.push(performance.now() - t0);
      await serve.stop();
    };
    await off(false);
    for (let i = 0; i < runs; i += 1) {
      ctx.log(`warm-start: run ${i + 1}/${runs}`);
      if (i % 2 === 0) await off();
      const t0 = performance.now();
      const serve = await startServe(ctx.angeliaBin, ctx.root, inst.env);
      try {
        ready.samplesMs.push(performance.now() - t0);
        if ((await httpStatus(serve.url.split('#')[0] as string)) === 200) http.samplesMs.push(performance.now() - t0);
        for (;;) {
          const r = await invoke(serve.url, 'chats:list', {});
          const views = (r.value ?? []) as { id: string; mode?: { source?: string } | null }[];
          if (views.filter((v) => v.mode?.source === 'attested').length >= WARM_AGENTS) break;
          if (performance.now() - t0 > 600_000) throw new Error(`not all warm after 600 s: ${views.filter((v) => v.mode?.source === 'attested').length}`);
          await sleep(50);
        }
        warm.samplesMs.push(performance.now() - t0);
        const m = memoryOf(serve.pid);
        if (m) {
          rss.push(m.rssMb);
          hwm.push(m.hwmMb);
        }
        children.push(appServerChildren(serve.pid).reduce((sum, pid) => sum + (memoryOf(pid)?.rssMb ?? 0), 0));
        requestsAfter.push(inst.model.modelRequests().length - before);
      } catch (e) {
        warm.failures.push(e instanceof Error ? e.message : String(e));
      } finally {
        await serve.stop();
      }
      if (i % 2 === 1) await off();
    }
  } finally {
    await inst.cleanup().catch(() => undefined);
    await cold.cleanup().catch(() => undefined);
  }
  const load = loadLine(loadAtStart, loadavg());
  const [sr, so, sh, sm, sc] = [stats(ready.samplesMs), stats(readyOff.samplesMs), stats(hwm), stats(rss), stats(children)];
  const delay = sr && so ? sr.median / so.median : undefined;
  const verdicts: Verdict[] = [
    {
      target: `${WARM_AGENTS} warm agents: Angelia's own memory ≤ ${RSS_TARGET_MB} MB RSS (children not counted; peak), the bound of many-agents`,
      measured: sh && sm ? `peak ${sh.max.toFixed(1)} MB (VmHWM; ${sm.median.toFixed(1)} MB when all ${WARM_AGENTS} were up, median of ${sm.n})` : 'nothing',
      pass: sh ? sh.max <= RSS_TARGET_MB : undefined,
    },
    {
      target: `warming does not delay the host: spawn → "serving on" with ${WARM_AGENTS} agents warming ≤ ${DELAY_TARGET.toFixed(2)}× the same with warm_agents = 0 (medians, interleaved)`,
      measured:
        delay !== undefined && sr && so
          ? `${delay.toFixed(2)}× (${ms(sr.median)} ms / ${ms(so.median)} ms; host-ready's own target is ${READY_TARGET_MS} ms)`
          : 'nothing',
      pass: delay !== undefined ? delay <= DELAY_TARGET : undefined,
    },
  ];
  const markdown = [
    ...sectionHead(`Warm agents at app start: \`angelia serve\` with ${WARM_AGENTS} warm agents`, ctx.machine, load, verdicts),
    `Method: ${runs} runs of \`node ${ctx.angeliaBin.replace(`${ctx.root}/`, '')} serve --port 0\` on one instance of ${WARM_AGENTS} profiles, each chat with a past session ` +
      `(one turn each, made before in the benchmark process), \`[defaults] warm_agents = ${WARM_AGENTS}\`, \`warm_memory_mb = 8192\`. Times from the spawn; ` +
      '"attested" is polled every 50 ms over the host\'s WebSocket (`chats:list`, the served UI\'s channel). Memory is /proc/<pid>/status of the serve process ' +
      'once all were attested; its children are separate processes and not counted in its RSS. The host ready figure is the same event as host-ready\'s "serving on" line; ' +
      'there is no tray in the headless host. The context row is a second instance with the same table and `warm_agents = 0`, run between the measured runs (its first run unmeasured).',
    '',
    seriesTable([ready, readyOff, http, warm]),
    '',
    '| figure | value |',
    '|---|---|',
    `| serve RSS with ${WARM_AGENTS} warm agents (median of runs) | ${sm ? `${sm.median.toFixed(1)} MB` : '–'} |`,
    `| serve peak RSS (VmHWM, max of runs) | ${sh ? `${sh.max.toFixed(1)} MB` : '–'} |`,
    `| context: the ${WARM_AGENTS} app-servers' summed RSS (median of runs; not Angelia's) | ${sc ? `${sc.median.toFixed(1)} MB (${(sc.median / WARM_AGENTS).toFixed(1)} MB each)` : '–'} |`,
    `| model requests made while warming (all runs) | ${requestsAfter.length ? Math.max(...requestsAfter) : '–'} |`,
  ].join('\n');
  const summary = [
    ...[ready, http, warm].map((s) => {
      const st = stats(s.samplesMs);
      return `${s.label.slice(0, 50)}: ${st ? `median ${ms(st.median)} ms (${ms(st.min)}–${ms(st.max)})` : 'no samples'}${s.failures.length ? `, failed: ${s.failures[0]}` : ''}`;
    }),
    `serve RSS ${sm ? sm.median.toFixed(1) : '–'} MB, peak ${sh ? sh.max.toFixed(1) : '–'} MB; children ${sc ? sc.median.toFixed(1) : '–'} MB; model requests while warming ${requestsAfter.join(',')}`,
    ...verdicts.map((v) => `${v.target}: ${v.measured}`),
    load,
  ].join('\n');
  return { markdown, summary, verdicts };
}

/** The warm-start benchmark module. */
export const warmStart: Benchmark = { id: 'warm-start', title: `Warm agents at app start (${WARM_AGENTS} warm agents: memory, host ready)`, run };
