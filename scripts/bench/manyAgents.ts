/**
 * Twenty profiles live at once: one `angelia serve` process (the headless host, as a user runs it) with a
 * table of 20 profiles, each chat driven through the loopback API (`POST /turn` with the owner token), real
 * codex in the real sandbox, the scripted model.
 *
 * Phase 1, memory: all 20 chats get a turn at once (20 `codex app-server` children start), then more
 * rounds of 20 concurrent turns. The serve process's own resident memory (`VmRSS` of /proc/<pid>/status;
 * its children are separate processes and not counted) is sampled every 250 ms; figures: before any agent,
 * after all 20 are up, after the last round, and the peak (`VmHWM`, the kernel's high-water mark). The
 * children's summed RSS is given as context.
 * Phase 2, idle reaping: a second instance whose table sets `[defaults] idle_exit_minutes` short
 * (`IDLE_MINUTES`); one turn in each of the 20 chats, then for each chat the time from its turn's end
 * (the `turn-end` event of `GET /events`, stamped by Angelia) to its app-server's exit (the pid from
 * `<state>/private/children.json` gone from /proc, polled every 50 ms), against the configured time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { request } from 'node:http';
import { WebSocket } from 'ws';
import { makeInstance, type TestInstance } from '../../test/fixtures/instance';
import { sectionHead, distributionTable, loadLine, ms, type Benchmark, type BenchContext, type BenchResult, type Verdict } from './benchmark';

/** Profiles (and app-servers) live at once. */
export const AGENTS = 20;
/** The target for Angelia's own RSS, MB. */
export const RSS_TARGET_MB = 200;
/** `idle_exit_minutes` of phase 2 (6 s). */
export const IDLE_MINUTES = 0.1;
/** How often a chat whose start failed gets its turn sent again before the benchmark gives up. */
export const MAX_RETRIES = 3;
/** How late after the idle time a child may exit and still be "on time", ms. */
export const REAP_TOLERANCE_MS = 2000;

/** RSS and peak RSS of a process, MB (from /proc/<pid>/status); undefined when it is gone. */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string): number => Number(status.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Pids of the direct children of `pid` whose command line ends with "app-server". */
export function appServerChildren(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[argv.length - 1] === 'app-server') out.push(Number(name));
    } catch {
      // the process went away meanwhile
    }
  }
  return out;
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

/** Removes the instance; a Codex helper still exiting may hold a folder a moment longer, so it retries (never throws). */
export async function cleanup(inst: TestInstance): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    try {
      await inst.cleanup();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export interface Serve {
  child: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
  stderrTail(): string;
}

/** Spawns `node <bin> serve --port 0` for the instance; resolves once it prints its address. */
export function startServe(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Serve> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`angelia serve did not start within 60 s: ${err.slice(-300)}`)), 60_000);
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => {
      err = (err + c).slice(-4000);
    });
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (!/API on /.test(out)) return;
      clearTimeout(timer);
      resolve({
        child,
        pid: child.pid as number,
        url: out.match(/serving on (\S+)/)?.[1] ?? '',
        stderrTail: () => err.slice(-600),
        async stop() {
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(t);
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`angelia serve exited (${code}) before serving: ${err.slice(-300)}`)));
  });
}

/**
 * One call of the loopback API on `<state>/api.sock` with the owner token (a fresh connection each, no
 * keep-alive). Resolves with the parsed JSON answer; rejects on a non-2xx status.
 */
export function callApi<T>(inst: TestInstance, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = readFileSync(inst.paths.apiToken, 'utf8').trim();
  const text = body === undefined ? null : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: inst.paths.apiSock,
        method,
        path,
        agent: false,
        headers: {
          host: 'localhost',
          authorization: `Bearer ${token}`,
          ...(text !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${raw.slice(0, 200)}`));
          else resolve(JSON.parse(raw) as T);
        });
      },
    );
    req.on('error', reject);
    req.end(text ?? undefined);
  });
}

/**
 * Follows `GET /events` (server-sent events, owner token) and calls `onTurnEnd(key, atMs, status)` for every
 * `turn-end` event (`at`: Angelia's wall clock, ISO). Resolves with the function that closes the stream
 * once it is open.
 */
export function followTurnEnds(inst: TestInstance, onTurnEnd: (key: string, atMs: number, status: string) => void): Promise<() => void> {
  const token = readFileSync(inst.paths.apiToken, 'utf8').trim();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: inst.paths.apiSock,
        method: 'GET',
        path: '/events',
        agent: false,
        headers: { host: 'localhost', authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET /events: ${res.statusCode}`));
          return;
        }
        let buf = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          buf += c;
          let end = buf.indexOf('\n\n');
          while (end >= 0) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            end = buf.indexOf('\n\n');
            if (!/^event: turn-end$/m.test(block)) continue;
            const data = block.match(/^data: (.*)$/m)?.[1];
            if (!data) continue;
            const e = JSON.parse(data) as { key: string; at: string; status: string };
            onTurnEnd(e.key, Date.parse(e.at), e.status);
          }
        });
        res.on('error', () => undefined);
        resolve(() => req.destroy());
      },
    );
    req.on('error', (e) => reject(e));
    req.end();
  });
}

/** The last error item of a chat's transcript, read over the headless host's WebSocket (`chats:items`), for a failure message. */
function lastError(url: string, chatId: string): Promise<string> {
  const u = new URL(url);
  const token = new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${u.host}/ws?token=${encodeURIComponent(token)}`);
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error('no answer in 10 s'));
    }, 10_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'chats:items', input: { chatId } })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as {
        type: string;
        id?: unknown;
        result?: { ok: boolean; value?: { type: string; message?: string; detail?: string | null }[] };
      };
      if (m.type !== 'result' || m.id !== 1) return;
      clearTimeout(timer);
      ws.close();
      const errors = (m.result?.value ?? []).filter((i) => i.type === 'error');
      const last = errors[errors.length - 1];
      resolve(last ? `${last.message ?? ''}${last.detail ? ` (${last.detail.slice(0, 300)})` : ''}` : 'no error item in its transcript');
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

interface StatusChat {
  chat: string;
  state: string;
  session: string | null;
  queued: number;
}

async function status(inst: TestInstance): Promise<StatusChat[]> {
  return (await callApi<{ chats: StatusChat[] }>(inst, 'GET', '/status')).chats;
}

/** Gives each chat a turn at once and waits until every chat is idle again with a session (≤ `timeoutMs`). */
/**
 * Gives each chat a turn at once and waits until every chat is idle again with a session (≤ `timeoutMs`).
 * A chat that ends in `error` gets its turn sent again (as a user would press Restart or resend), at most
 * `MAX_RETRIES` times, and `onRetry(chat)` is told each time (the benchmark notes why); `refused`, or an
 * error after the last retry, throws.
 */
async function roundOfTurns(inst: TestInstance, names: string[], text: string, timeoutMs: number, onRetry?: (chat: string) => Promise<void>): Promise<void> {
  await Promise.all(names.map((key) => callApi(inst, 'POST', '/turn', { key, text, plain: true })));
  const seen = new Set<string>();
  const attempts = new Map<string, number>();
  /** Chats sent again whose state has not left `error` yet. */
  const resent = new Set<string>();
  const t0 = Date.now();
  // A chat reads idle only once its turn ran: wait for it to leave idle first (or to have a session and an empty queue).
  const busy = new Set(names);
  for (;;) {
    const chats = await status(inst);
    for (const c of chats) {
      if (!names.includes(c.chat)) continue;
      if (c.state === 'refused') throw new Error(`chat ${c.chat} is refused`);
      if (c.state !== 'error') resent.delete(c.chat);
      if (c.state !== 'idle' && c.state !== 'error') busy.delete(c.chat);
      if (c.state === 'idle' && c.queued === 0 && c.session && !busy.has(c.chat) && !seen.has(c.chat)) seen.add(c.chat);
      if (c.state !== 'error' || resent.has(c.chat)) continue;
      const n = attempts.get(c.chat) ?? 0;
      if (!onRetry || n >= MAX_RETRIES) throw new Error(`chat ${c.chat} is error${n ? ` (after ${n} retries)` : ''}`);
      attempts.set(c.chat, n + 1);
      await onRetry(c.chat);
      resent.add(c.chat);
      busy.add(c.chat);
      await callApi(inst, 'POST', '/turn', { key: c.chat, text, plain: true });
    }
    if (seen.size === names.length) return;
    // A turn so short that one poll missed its busy state: after 20 s an idle chat with a session counts.
    if (Date.now() - t0 > 20_000) for (const n of busy) if (!resent.has(n)) busy.delete(n);
    if (Date.now() - t0 > timeoutMs) throw new Error(`only ${seen.size}/${names.length} chats finished their turn within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const names = Array.from({ length: AGENTS }, (_, i) => `p${String(i + 1).padStart(2, '0')}`);
  const profiles = Object.fromEntries(names.map((n) => [n, { permission_mode: 'default' }]));
  const rounds = ctx.quick ? 1 : 2;
  const script = () => ({ message: 'Short answer from the scripted model.', chunks: 4 });
  const notes: string[] = [];
  /** Chats whose turn ended in an error and was sent again, with the error. */
  const retries: string[] = [];

  // ---- phase 1: memory with 20 app-servers
  ctx.log(`many-agents: phase 1, ${AGENTS} profiles`);
  const inst = await makeInstance(profiles, { privateHome: true, script });
  let serve: Serve | null = null;
  const rssSamples: number[] = [];
  let sampler: NodeJS.Timeout | null = null;
  const fig: Record<string, number | undefined> = {};
  let childrenMb: number | undefined;
  let liveAfter: number | undefined;
  try {
    serve = await startServe(ctx.angeliaBin, ctx.root, inst.env);
    const pid = serve.pid;
    await new Promise((r) => setTimeout(r, 1000));
    fig.idle = memoryOf(pid)?.rssMb;
    sampler = setInterval(() => {
      const m = memoryOf(pid);
      if (m) rssSamples.push(m.rssMb);
    }, 250);
    const t0 = performance.now();
    const retry =
      (srv: Serve | null) =>
      async (chat: string): Promise<void> => {
        const why = srv ? await lastError(srv.url, chat).catch((x: Error) => `(could not read why: ${x.message})`) : '';
        retries.push(`${chat}: ${why}`);
      };
    await roundOfTurns(inst, names, 'Hello, first turn.', 600_000, retry(serve)).catch(async (e: Error) => {
      const chat = /chat (\S+) is/.exec(e.message)?.[1];
      const why = serve && chat ? await lastError(serve.url, chat).catch((x: Error) => `(could not read it: ${x.message})`) : '';
      throw new Error(`${e.message}${why ? ` — ${why}` : ''}; angelia serve's stderr: ${serve?.stderrTail() || '(empty)'}`);
    });
    fig.startAllMs = performance.now() - t0;
    const live = appServerChildren(pid);
    fig.live = live.length;
    fig.up = memoryOf(pid)?.rssMb;
    for (let r = 0; r < rounds; r += 1) {
      ctx.log(`many-agents: round ${r + 2}/${rounds + 1} of ${AGENTS} concurrent turns`);
      await roundOfTurns(inst, names, `Turn ${r + 2}.`, 600_000);
    }
    const after = appServerChildren(pid);
    liveAfter = after.length;
    fig.afterTurns = memoryOf(pid)?.rssMb;
    fig.hwm = memoryOf(pid)?.hwmMb;
    childrenMb = after.map((p) => memoryOf(p)?.rssMb ?? 0).reduce((a, b) => a + b, 0);
  } finally {
    if (sampler) clearInterval(sampler);
    await serve?.stop();
    await cleanup(inst);
  }

  // ---- phase 2: idle reaping
  ctx.log(`many-agents: phase 2, idle reaping (idle_exit_minutes = ${IDLE_MINUTES})`);
  const inst2 = await makeInstance(profiles, { privateHome: true, script, defaults: { idle_exit_minutes: IDLE_MINUTES } });
  let serve2: Serve | null = null;
  const idleMs = IDLE_MINUTES * 60_000;
  const reapDelays: number[] = [];
  const unreaped: string[] = [];
  let rssAfterReap: number | undefined;
  try {
    serve2 = await startServe(ctx.angeliaBin, ctx.root, inst2.env);
    const pid = serve2.pid;
    // Both clocks are the wall clock (Date): Angelia stamps each turn's end (`turn-end` on /events);
    // this process stamps each app-server's exit (its pid gone from /proc, polled every 50 ms).
    const endAt = new Map<string, number>();
    const pidOf = new Map<string, number>();
    const exitAt = new Map<number, number>();
    const readChildren = (): void => {
      try {
        const file = JSON.parse(readFileSync(inst2.paths.childrenFile, 'utf8')) as { children: { pid: number; chatId: string }[] };
        // The newest child of each chat (a start that failed and was retried had another one before).
        for (const c of file.children) pidOf.set(c.chatId, c.pid);
      } catch {
        // not written yet
      }
    };
    const stopEvents = await followTurnEnds(inst2, (key, at, st) => {
      if (st === 'completed') endAt.set(key, at);
    });
    const watcher = setInterval(() => {
      readChildren();
      for (const p of pidOf.values()) if (!exitAt.has(p) && !alive(p)) exitAt.set(p, Date.now());
    }, 50);
    try {
      await roundOfTurns(inst2, names, 'One turn, then rest.', 600_000, async (chat) => {
        const why = serve2 ? await lastError(serve2.url, chat).catch((x: Error) => `(could not read why: ${x.message})`) : '';
        retries.push(`${chat} (phase 2): ${why}`);
      });
      readChildren();
      const deadline = performance.now() + idleMs + 30_000;
      while (performance.now() < deadline && [...pidOf.values()].some((p) => !exitAt.has(p))) await new Promise((r) => setTimeout(r, 100));
    } finally {
      clearInterval(watcher);
      stopEvents();
    }
    for (const n of names) {
      const p = pidOf.get(n);
      const end = endAt.get(n);
      const exit = p !== undefined ? exitAt.get(p) : undefined;
      if (p === undefined || end === undefined || exit === undefined) unreaped.push(n);
      else reapDelays.push(exit - end);
    }
    rssAfterReap = memoryOf(pid)?.rssMb;
    if (appServerChildren(pid).length) notes.push(`${appServerChildren(pid).length} app-server(s) still running after the wait`);
  } finally {
    await serve2?.stop();
    await cleanup(inst2);
  }

  const mb = (x: number | undefined): string => (x === undefined ? '–' : `${x.toFixed(1)} MB`);
  const peak = Math.max(fig.hwm ?? 0, ...rssSamples);
  const rssPass = fig.up !== undefined && fig.live === AGENTS ? peak <= RSS_TARGET_MB : undefined;
  // Not before the idle time (50 ms: the exit polling's resolution), and at most REAP_TOLERANCE_MS after it.
  const late = reapDelays.filter((d) => d > idleMs + REAP_TOLERANCE_MS || d < idleMs - 50);
  const verdicts: Verdict[] = [
    {
      target: `${AGENTS} profiles live at once: Angelia's own memory ≤ ${RSS_TARGET_MB} MB RSS (children not counted; peak)`,
      measured: `peak ${mb(peak)} (VmHWM; ${fig.live ?? '?'} app-servers live; ${mb(fig.up)} when all were up, ${mb(fig.afterTurns)} after ${rounds + 1} rounds)`,
      pass: rssPass,
    },
    {
      target: `idle children reaped on time (idle_exit_minutes = ${IDLE_MINUTES} → ${ms(idleMs)} ms; each exits within ${REAP_TOLERANCE_MS} ms after it)`,
      measured: reapDelays.length
        ? `${reapDelays.length}/${AGENTS} reaped, turn end → exit ${ms(Math.min(...reapDelays))}–${ms(Math.max(...reapDelays))} ms${unreaped.length ? `; not reaped: ${unreaped.join(', ')}` : ''}`
        : 'nothing',
      pass: reapDelays.length ? unreaped.length === 0 && late.length === 0 : undefined,
    },
  ];
  const load = loadLine(loadAtStart, loadavg());
  const markdown = [
    ...sectionHead(`${AGENTS} app-servers live: Angelia's memory, and idle reaping`, ctx.machine, load, verdicts),
    `Method: one \`angelia serve\` process (\`${ctx.angeliaBin.replace(`${ctx.root}/`, '')}\`) with a table of ${AGENTS} profiles, driven through the loopback API ` +
      `(\`POST /turn\`, owner token; \`GET /status\` polled). Phase 1: ${rounds + 1} rounds of ${AGENTS} concurrent turns (the first starts the ${AGENTS} app-servers; ` +
      "scripted model, one short message each). Angelia's memory is the serve process's `VmRSS` (/proc/<pid>/status), sampled every 250 ms; its children are " +
      'separate processes and not counted. Phase 2: a fresh instance with `[defaults] idle_exit_minutes = ' +
      `${IDLE_MINUTES}\`, one turn in each chat, then each chat's turn end (the \`turn-end\` event of \`GET /events\`, stamped by Angelia) → its app-server's exit ` +
      '(its pid, from children.json, gone from /proc; 50 ms polling), both on the wall clock.',
    '',
    '| phase 1 figure | value |',
    '|---|---|',
    `| serve RSS before any agent | ${mb(fig.idle)} |`,
    `| time to start all ${AGENTS} and finish their first turns | ${fig.startAllMs !== undefined ? `${ms(fig.startAllMs)} ms` : '–'} |`,
    `| app-servers live after the first round / after the last | ${fig.live ?? '–'} / ${liveAfter ?? '–'} |`,
    `| serve RSS when all ${AGENTS} were up | ${mb(fig.up)} |`,
    `| serve RSS after ${rounds + 1} rounds | ${mb(fig.afterTurns)} |`,
    `| serve RSS samples (every 250 ms): min / median / max | ${rssSamples.length ? `${mb(Math.min(...rssSamples))} / ${mb([...rssSamples].sort((a, b) => a - b)[rssSamples.length >> 1])} / ${mb(Math.max(...rssSamples))} (n=${rssSamples.length})` : '–'} |`,
    `| serve peak RSS (VmHWM) | ${mb(fig.hwm)} |`,
    `| context: the ${AGENTS} app-servers' summed RSS (not Angelia's) | ${mb(childrenMb)} |`,
    `| phase 2: serve RSS after the children were reaped | ${mb(rssAfterReap)} |`,
    '',
    `Phase 2, turn end → app-server exit (configured ${ms(idleMs)} ms; ms):`,
    '',
    distributionTable([{ label: 'turn end → app-server exited', xs: reapDelays, note: unreaped.length ? `not reaped: ${unreaped.join(', ')}` : '' }]),
    ...(retries.length
      ? [
          '',
          `**${retries.length} chat start(s) failed and were sent again** (not an Angelia memory matter, but a start failure under ${AGENTS} concurrent starts): ${retries.map((r) => r.replace(/\|/g, '\\|').slice(0, 400)).join(' · ')}`,
        ]
      : []),
    ...(notes.length ? ['', `Notes: ${notes.join('; ')}.`] : []),
  ].join('\n');
  const summary = [
    `serve RSS: idle ${mb(fig.idle)}, ${AGENTS} up ${mb(fig.up)}, after turns ${mb(fig.afterTurns)}, peak ${mb(peak)}; children ${mb(childrenMb)}; start all ${fig.startAllMs !== undefined ? ms(fig.startAllMs) : '–'} ms`,
    `reaping: ${reapDelays.length}/${AGENTS}, delays ${reapDelays.map((d) => ms(d)).join(', ')}`,
    ...(retries.length ? [`${retries.length} start(s) failed and were retried: ${retries.join(' · ').slice(0, 600)}`] : []),
    load,
  ].join('\n');
  return { markdown, summary, verdicts };
}

/** The many-agents benchmark module. */
export const manyAgents: Benchmark = { id: 'many-agents', title: `${AGENTS} app-servers live (Angelia RSS, idle reaping)`, run };
