/**
 * The renderer in Chromium (headless, playwright-core, /usr/bin/chromium or CHROMIUM_PATH), against the
 * headless host (`startHost`, the same server `angelia serve` runs) over a fake core (test/fixtures/fakeCore)
 * holding a chat of 5 000 items (alternating notices and markdown agent answers, as test/e2e/ui-fake does).
 *
 * First paint of a 5 000-item chat, per run (a fresh page load each run, so nothing is cached in the page):
 * the chat list is shown, then, in the page, `t0 = performance.now()` and a click on the chat's row; the
 * renderer asks the host for its items (`chats:items` over the WebSocket), stores them and renders the
 * virtualized transcript, starting at the end. Stamps (page clock): items = the WebSocket message carrying
 * the answer arrives (a listener registered before the app's); dom = a MutationObserver sees the last item
 * (`[data-item-index="4999"]`) in the transcript; painted = the first task after the frame that rendered it
 * (a MessageChannel message posted from that frame's requestAnimationFrame callback, which runs after the
 * DOM change: Chromium renders the frame right after its rAF callbacks). First paint = painted − t0.
 *
 * Streaming, per run: with the chat open at its end, the host pushes a new agent item, then `chat:delta`
 * events at 200 a second for `STREAM_SECONDS` (each a few words of markdown), as Codex streams an answer.
 * The page records every requestAnimationFrame timestamp: a frame's time is the interval between two
 * consecutive frames (what the reader sees), plus, per frame, the rendering work (rAF callback → the first
 * task after it). Long tasks (> 50 ms, PerformanceObserver 'longtask') are counted.
 */
import { loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AppEvent, ChatItem, CoreApi } from '../../src/shared/contract';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createFakeCore } from '../../test/fixtures/fakeCore';
import {
  distribution,
  distributionTable,
  loadLine,
  machineLine,
  ms,
  verdictLines,
  type Benchmark,
  type BenchContext,
  type BenchResult,
  type Verdict,
} from './benchmark';

/** Items in the long chat. */
export const ITEMS = 5000;
/** Deltas a second, and how long they stream. */
export const DELTAS_PER_SECOND = 200;
export const STREAM_SECONDS = 5;
/** The targets, ms. */
export const FIRST_PAINT_TARGET_MS = 150;
export const FRAME_TARGET_MS = 16;
/** One frame at 60 Hz, the rate Chromium paces requestAnimationFrame at (ms). */
export const VSYNC_MS = 1000 / 60;

/** Chromium's flags for the headless benchmark. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The long chat's items: even = a notice, odd = a markdown agent answer. */
export function longChat(n = ITEMS): ChatItem[] {
  return Array.from({ length: n }, (_, i): ChatItem =>
    i % 2 === 0
      ? { type: 'notice', id: `n${i}`, text: `Line #${i}` }
      : { type: 'agent', id: `a${i}`, text: `Answer **#${i}**: all good, see \`file${i}.ts\` and the [notes](https://example.com/${i}).`, done: true },
  );
}

/** The page-side instrumentation, installed before the app's first script (addInitScript). */
function instrument(): void {
  const w = window as unknown as Record<string, unknown>;
  const bench = { bigMessageAt: [] as number[], deltas: 0, frames: [] as number[], work: [] as number[], recording: false, longTasks: 0 };
  w.__bench = bench;
  const Orig = window.WebSocket;
  const Wrapped = function (this: unknown, url: string | URL, protocols?: string | string[]) {
    const ws = new Orig(url, protocols);
    ws.addEventListener('message', (ev: MessageEvent) => {
      const at = performance.now();
      const data = typeof ev.data === 'string' ? ev.data : '';
      if (data.length > 100_000) bench.bigMessageAt.push(at);
      else if (bench.recording && data.includes('"chat:delta"')) bench.deltas += 1;
    });
    return ws;
  } as unknown as typeof WebSocket;
  Object.assign(Wrapped, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  Wrapped.prototype = Orig.prototype;
  window.WebSocket = Wrapped;
  try {
    new PerformanceObserver((list) => {
      if (bench.recording) bench.longTasks += list.getEntries().length;
    }).observe({ type: 'longtask', buffered: false });
  } catch {
    // no longtask support
  }
  const channel = new MessageChannel();
  let frameAt = 0;
  channel.port1.onmessage = () => {
    if (bench.recording) bench.work.push(performance.now() - frameAt);
  };
  const loop = (t: number): void => {
    if (bench.recording) {
      bench.frames.push(t);
      frameAt = performance.now();
      channel.port2.postMessage(0);
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

/** In the page: clicks the chat and resolves with the stamps of its first paint. */
function openChatInPage(chatId: string): Promise<{ t0: number; items: number; dom: number; frame: number; painted: number; rendered: number }> {
  const bench = (window as unknown as { __bench: { bigMessageAt: number[] } }).__bench;
  return new Promise((resolve, reject) => {
    const row = document.querySelector(`[data-testid="chat-list-item"][data-chat-id="${chatId}"]`) as HTMLElement | null;
    if (!row) {
      reject(new Error(`no chat row ${chatId}`));
      return;
    }
    const last = (): Element | null => document.querySelector('[data-testid="transcript"] [data-item-index="4999"]');
    let dom = 0;
    const seen = (): void => {
      if (dom) return;
      dom = performance.now();
      observer.disconnect();
      requestAnimationFrame((frame) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          const painted = performance.now();
          resolve({
            t0,
            items: bench.bigMessageAt[bench.bigMessageAt.length - 1] ?? NaN,
            dom,
            frame,
            painted,
            rendered: document.querySelectorAll('[data-testid="transcript"] [data-item-index]').length,
          });
        };
        ch.port2.postMessage(0);
      });
    };
    const observer = new MutationObserver(() => {
      if (last()) seen();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => reject(new Error('the last item did not appear within 20 s')), 20_000);
    const t0 = performance.now();
    row.click();
  });
}

interface Opened {
  t0: number;
  items: number;
  dom: number;
  frame: number;
  painted: number;
  rendered: number;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  // ANGELIA_BENCH_RENDERER_DIR measures another build of the renderer (default out/renderer).
  const rendererDir = process.env.ANGELIA_BENCH_RENDERER_DIR ?? join(ctx.root, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`the built renderer is missing (${rendererDir}); run \`npx electron-vite build\``);
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const fake = createFakeCore({ extraChats: [{ id: 'long', items: longChat(), lastLine: `Answer #${ITEMS - 1}` }] });
  const listeners = new Set<(e: AppEvent) => void>();
  const core: CoreApi = {
    handlers: fake.core.handlers,
    subscribe: (l) => {
      listeners.add(l);
      const off = fake.core.subscribe(l);
      return () => {
        listeners.delete(l);
        off();
      };
    },
  };
  const emit = (e: AppEvent): void => {
    for (const l of [...listeners]) l(e);
  };
  let host: RunningHost | null = null;
  let browser: Browser | null = null;
  const firstPaint: number[] = [];
  const toItems: number[] = [];
  const toDom: number[] = [];
  const toPainted: number[] = [];
  const frames: number[] = [];
  const work: number[] = [];
  const problems: string[] = [];
  let deltasSent = 0;
  let deltasSeen = 0;
  let longTasks = 0;
  let streamedMs = 0;
  let rendered = 0;
  try {
    host = await startHost({ core, rendererDir });
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    const version = browser.version();
    const page: Page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // tsx (esbuild keepNames) wraps named inner functions in `__name(...)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.addInitScript(instrument);
    const runs = ctx.quick ? 3 : Math.max(ctx.runs, 7);
    const streams = ctx.quick ? 1 : 3;
    for (let i = 0; i <= runs; i += 1) {
      ctx.log(`renderer: ${i === 0 ? 'warm-up' : `first paint ${i}/${runs}`}`);
      // The first load carries the token in the fragment (kept in sessionStorage); later runs reload the page.
      if (i === 0) await page.goto(host.url);
      else await page.reload();
      await page.locator('[data-testid="chat-list-item"][data-chat-id="long"]').waitFor();
      // Let the page settle (initial loads done) before the click.
      await page.waitForTimeout(300);
      const o = (await page.evaluate(openChatInPage, 'long')) as Opened;
      rendered = await page.locator('[data-testid="transcript"] [data-item-index]').count();
      if (i === 0) continue;
      firstPaint.push(o.painted - o.t0);
      toItems.push(o.items - o.t0);
      toDom.push(o.dom - o.items);
      toPainted.push(o.painted - o.dom);
    }
    // Streaming into the open chat (the page of the last run shows it at its end).
    for (let s = 0; s < streams; s += 1) {
      ctx.log(`renderer: streaming ${DELTAS_PER_SECOND} deltas/s for ${STREAM_SECONDS} s (${s + 1}/${streams})`);
      const itemId = `stream-${s}`;
      emit({ event: 'chat:item', payload: { chatId: 'long', item: { type: 'agent', id: itemId, text: '', done: false } } });
      await page.waitForTimeout(200);
      await page.evaluate(() => {
        const b = (window as unknown as { __bench: { frames: number[]; work: number[]; deltas: number; longTasks: number; recording: boolean } }).__bench;
        b.frames = [];
        b.work = [];
        b.deltas = 0;
        b.longTasks = 0;
        b.recording = true;
      });
      const words = [
        'Streaming ',
        'the **answer** ',
        'word by word, ',
        'with `code` ',
        'and a [link](https://example.com). ',
        '\n\n- a list item ',
        'and more text. ',
      ];
      const t0 = performance.now();
      let sent = 0;
      while (performance.now() - t0 < STREAM_SECONDS * 1000) {
        const due = Math.floor(((performance.now() - t0) / 1000) * DELTAS_PER_SECOND);
        for (; sent < due; sent += 1)
          emit({ event: 'chat:delta', payload: { chatId: 'long', itemId, field: 'text', delta: words[sent % words.length] as string } });
        await new Promise((r) => setTimeout(r, 5));
      }
      streamedMs += performance.now() - t0;
      deltasSent += sent;
      await page.waitForTimeout(100);
      const r = (await page.evaluate(() => {
        const b = (window as unknown as { __bench: { frames: number[]; work: number[]; deltas: number; longTasks: number; recording: boolean } }).__bench;
        b.recording = false;
        return { frames: b.frames, work: b.work, deltas: b.deltas, longTasks: b.longTasks };
      })) as { frames: number[]; work: number[]; deltas: number; longTasks: number };
      for (let k = 1; k < r.frames.length; k += 1) frames.push((r.frames[k] as number) - (r.frames[k - 1] as number));
      work.push(...r.work);
      deltasSeen += r.deltas;
      longTasks += r.longTasks;
      emit({ event: 'chat:item', payload: { chatId: 'long', item: { type: 'agent', id: itemId, text: 'done', done: true } } });
    }
    await page.close();

    const fp = distribution(firstPaint);
    const fr = distribution(frames);
    const wk = distribution(work);
    const fpMedian = fp ? [...firstPaint].sort((a, b) => a - b)[firstPaint.length >> 1] : undefined;
    const dropped = frames.filter((f) => f > VSYNC_MS * 1.5).length;
    const verdicts: Verdict[] = [
      {
        target: `a ${ITEMS}-item chat's first paint ≤ ${FIRST_PAINT_TARGET_MS} ms (median, click → first frame showing it)`,
        measured: fp && fpMedian !== undefined ? `median ${ms(fpMedian)} ms (min ${ms(fp.min)}, max ${ms(fp.max)}, n=${fp.n})` : 'nothing',
        pass: fpMedian !== undefined ? fpMedian <= FIRST_PAINT_TARGET_MS : undefined,
      },
      {
        target: `${DELTAS_PER_SECOND} deltas/s streamed: 95th-percentile frame ≤ ${FRAME_TARGET_MS} ms (read as one 60 Hz frame, ${VSYNC_MS.toFixed(1)} ms: Chromium paces frames at 60 Hz, so no interval is shorter)`,
        measured: fr
          ? `p95 frame interval ${ms(fr.p95)} ms (p50 ${ms(fr.p50)}, max ${ms(fr.max)}; ${dropped}/${fr.n} frames over 1.5 vsync); rendering work per frame p95 ${wk ? ms(wk.p95) : '–'} ms`
          : 'nothing',
        pass: fr ? fr.p95 <= VSYNC_MS + 0.5 : undefined,
      },
    ];
    const load = loadLine(loadAtStart, loadavg());
    const markdown = [
      "## Renderer in Chromium: a 5 000-item chat's first paint, and 200 deltas a second",
      '',
      `${machineLine(ctx.machine)} Chromium ${version} (headless, \`${CHROMIUM_ARGS.join(' ')}\`), viewport 1100×720.`,
      '',
      load,
      '',
      verdictLines(verdicts),
      '',
      `Method: the built renderer (out/renderer) served by the headless host (\`startHost\`, as \`angelia serve\`) over the fake core with a chat of ${ITEMS} items ` +
        '(even: a notice, odd: a markdown answer). **First paint** (one warm-up, then a fresh page load per run): in the page, `t0 = performance.now()`, then a click on ' +
        "the chat's row; the renderer fetches the items (`chats:items` over the WebSocket), stores them and renders the virtualized transcript at its end. " +
        '"items" = the WebSocket message with the answer arrives (a listener registered before the app\'s); "dom" = a MutationObserver sees the last item ' +
        `(\`data-item-index="${ITEMS - 1}"\`) in the transcript; "painted" = the first task after the frame that rendered it (a MessageChannel message posted from ` +
        "that frame's requestAnimationFrame callback). First paint = painted − t0. " +
        `**Streaming** (${streams} × ${STREAM_SECONDS} s): a new agent item, then \`chat:delta\` events at ${DELTAS_PER_SECOND}/s from the host (a few words of markdown each); ` +
        "frame time = the interval between consecutive requestAnimationFrame callbacks; rendering work = a frame's rAF callback → the first task after it.",
      '',
      distributionTable([
        { label: 'first paint: click → frame rendered', xs: firstPaint },
        { label: '  click → items answer arrived (WebSocket)', xs: toItems },
        { label: '  items arrived → last item in the DOM (store, React, virtualizer)', xs: toDom },
        { label: '  last item in the DOM → frame rendered', xs: toPainted },
        { label: `streaming: frame interval (${DELTAS_PER_SECOND} deltas/s)`, xs: frames },
        { label: 'streaming: rendering work per frame (rAF → next task)', xs: work },
      ]),
      '',
      `Transcript items in the DOM after opening: ${rendered} of ${ITEMS} (virtualized). Deltas sent ${deltasSent} in ${ms(streamedMs)} ms ` +
        `(${streamedMs ? Math.round((deltasSent / streamedMs) * 1000) : 0}/s); delta messages seen by the page while recording ${deltasSeen}; long tasks (> 50 ms) while streaming: ${longTasks}.`,
      ...(problems.length ? ['', `Problems: ${problems.slice(0, 3).join('; ')}`] : []),
    ].join('\n');
    const d = (name: string, x: ReturnType<typeof distribution>): string =>
      `${name}: ${x ? `p50 ${ms(x.p50)} / p95 ${ms(x.p95)} / max ${ms(x.max)} ms (n=${x.n})` : 'no samples'}`;
    const summary = [
      d('first paint', fp),
      d('  click → items', distribution(toItems)),
      d('  items → dom', distribution(toDom)),
      d('  dom → painted', distribution(toPainted)),
      d('frame interval', fr),
      d('render work', wk),
      `deltas sent ${deltasSent}, seen ${deltasSeen}, long tasks ${longTasks}`,
      ...problems.slice(0, 3),
      load,
    ].join('\n');
    return { markdown, summary, verdicts };
  } finally {
    await browser?.close();
    await host?.close();
  }
}

/** The renderer benchmark module. */
export const renderer: Benchmark = { id: 'renderer', title: 'Renderer in Chromium (5 000-item first paint, 200 deltas/s)', run };
