/**
 * Load: 20 chats × 5 turns on one `angelia serve` (the built CLI, as scripts/bench/manyAgents.ts drives it),
 * each turn running a command that asks for an escalation (the scripted model), every approval answered by
 * a scripted answerer through the loopback API (`GET /permissions`, `POST /permission`: the one broker) after
 * a seeded random delay. Holds: every turn completes, every approval is answered exactly once (the audit log
 * and what the model received agree), none left pending, and serve's own memory stays within the bound of
 * docs/benchmarks.md (≤ 200 MB peak RSS, VmHWM). `LOAD_SEED` fixes the delays (printed either way).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { afterAll, expect, it } from 'vitest';
import { packageRoot } from '../../src/main/core/instance/program';
import { turnToolCalls, lastUserText } from '../../src/main/demo/scriptedModel';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { RSS_TARGET_MB, callApi, cleanup, followTurnEnds, memoryOf, startServe, type Serve } from '../../scripts/bench/manyAgents';
import { seededRandom } from './killHarness';
import { bwrapFailureOf } from '../fixtures/bwrapFailure';
import { denyMountPoints } from '../../src/main/core/launch/denyMountPoints';
import { execOutputLine, writeSummary } from './summary';

const CHATS = Number(process.env.LOAD_CHATS ?? 20);
const TURNS = Number(process.env.LOAD_TURNS ?? 5);
const seed = Number(process.env.LOAD_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`load: ${CHATS} chats × ${TURNS} turns, seed ${seed} (LOAD_SEED=${seed} repeats the delays)`);

let inst: TestInstance | null = null;
let serve: Serve | null = null;
afterAll(async () => {
  await serve?.stop();
  if (inst) await cleanup(inst);
});

interface Pending {
  key: string;
  id: string;
}

it(`${CHATS} chats × ${TURNS} turns with approvals answered at random delays`, async () => {
  const startedAt = new Date().toISOString();
  const load0 = loadavg();
  const names = Array.from({ length: CHATS }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);
  inst = await makeInstance(Object.fromEntries(names.map((n) => [n, { permission_mode: 'default' }])), {
    privateHome: true,
    // Each turn: an escalated command (Codex asks), then, with its output, the answer.
    script: (body) =>
      turnToolCalls(body).some((c) => c.output !== undefined)
        ? { message: `done: ${lastUserText(body) ?? ''}` }
        : { exec: { cmd: 'echo load-ok', login: false, sandbox_permissions: 'require_escalated', justification: 'the load run asks every turn' } },
  });
  const i = inst;
  serve = await startServe(join(packageRoot(), 'bin', 'angelia.js'), packageRoot(), i.env);
  const pid = serve.pid;
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryOf(pid)?.rssMb ?? 0)), 250);

  const ends: Array<{ key: string; status: string }> = [];
  const close = await followTurnEnds(i, (key, _at, status) => ends.push({ key, status }));

  // The scripted answerer: polls the pending approvals and answers each once, after a seeded delay.
  const rnd = seededRandom(seed);
  const scheduled = new Set<string>();
  const answered = new Map<string, number>();
  const refusedAnswers: string[] = [];
  const delays: number[] = [];
  let answering = true;
  const answerer = (async () => {
    while (answering) {
      const { permissions } = await callApi<{ permissions: Pending[] }>(i, 'GET', '/permissions');
      for (const p of permissions) {
        if (scheduled.has(p.id)) continue;
        scheduled.add(p.id);
        const delay = Math.floor(rnd() * 3000);
        delays.push(delay);
        setTimeout(() => {
          callApi(i, 'POST', '/permission', { key: p.key, id: p.id, allow: true })
            .then(() => answered.set(p.id, (answered.get(p.id) ?? 0) + 1))
            .catch((e: unknown) => refusedAnswers.push(`${p.id}: ${String(e)}`));
        }, delay);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();

  const t0 = Date.now();
  // Five turns per chat: sent one after another into each chat's queue (at most 10 wait), all chats at once.
  for (let k = 1; k <= TURNS; k++) await Promise.all(names.map((key) => callApi(i, 'POST', '/turn', { key, text: `turn ${k} of ${key}`, plain: true })));
  const total = CHATS * TURNS;
  const deadline = Date.now() + 25 * 60_000;
  while (ends.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  // Let late answers land (none should be left), then stop the answerer.
  const waitAnswers = Date.now() + 30_000;
  while (answered.size + refusedAnswers.length < scheduled.size && Date.now() < waitAnswers) await new Promise((r) => setTimeout(r, 200));
  answering = false;
  await answerer;
  const wallMs = Date.now() - t0;
  clearInterval(sampler);
  const mem = memoryOf(pid);
  const hwm = mem?.hwmMb ?? NaN;
  close();
  const pendingLeft = (await callApi<{ permissions: Pending[] }>(i, 'GET', '/permissions')).permissions.length;

  // The audit log: one `requested` and one `answered` per approval.
  const audit = readFileSync(i.paths.auditLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; approvalId?: string; by?: string });
  const perId = new Map<string, number>();
  for (const r of audit) if (r.event === 'answered' && r.approvalId) perId.set(r.approvalId, (perId.get(r.approvalId) ?? 0) + 1);
  const requested = audit.filter((r) => r.event === 'requested').length;
  const answeredTwiceAudit = [...perId.values()].filter((n) => n > 1).length;
  // What the model received: per turn, one request carrying the command's output (the approval's effect), whatever
  // the output says: under this load some allowed commands fail in bubblewrap's set-up ("bwrap: Can't bind mount …"),
  // counted apart below and named in docs/reliability.md.
  const outputs = new Map<string, number>();
  const ranOk = new Set<string>();
  const otherOutputs: string[] = [];
  // Commands that failed in bubblewrap's set-up (never ran): on a mount point Angelia makes before a start
  // (launch/denyMountPoints.ts; none may fail), or on a floor path it leaves missing (Codex's race, docs/reliability.md).
  const madePoints = new Set(denyMountPoints(i.paths).map((p) => p.path));
  const onMade: string[] = [];
  const onMissing: string[] = [];
  for (const r of i.model.modelRequests()) {
    const t = lastUserText(r.body);
    const out = turnToolCalls(r.body).find((c) => c.output !== undefined)?.output;
    if (!t || out === undefined) continue;
    outputs.set(t, (outputs.get(t) ?? 0) + 1);
    const setup = bwrapFailureOf(out);
    if (setup) (setup.path !== null && madePoints.has(setup.path) ? onMade : onMissing).push(setup.message);
    if (out.includes('load-ok')) ranOk.add(t);
    // Set-up failures are listed apart below; other outputs are shown as `exit N: <output>`, cut at a word.
    else if (!setup && otherOutputs.length < 3) otherOutputs.push(execOutputLine(out));
  }
  const completed = ends.filter((e) => e.status === 'completed').length;

  const figures = {
    turns: total,
    completed,
    'turns not completed': total - completed,
    approvalsRequested: requested,
    approvalsAnsweredAudit: perId.size,
    'answered twice (audit)': answeredTwiceAudit,
    'answered twice (model: output received twice)': [...outputs.values()].filter((n) => n > 1).length,
    'turns whose command output reached the model': outputs.size,
    'left pending': pendingLeft,
    'answers refused (409)': refusedAnswers.length,
    "commands failed in bwrap's set-up on a mount point Angelia makes": onMade.length,
  };
  const expected = {
    completed: total,
    approvalsRequested: total,
    approvalsAnsweredAudit: total,
    'answered twice (audit)': 0,
    'answered twice (model: output received twice)': 0,
    'turns whose command output reached the model': total,
    'left pending': 0,
    'answers refused (409)': 0,
    "commands failed in bwrap's set-up on a mount point Angelia makes": 0,
  };
  const missed = Object.entries(expected)
    .filter(([k, v]) => figures[k as keyof typeof figures] !== v)
    .map(([k, v]) => `${k}: ${figures[k as keyof typeof figures]} (expected ${v})`);
  writeSummary({
    suite: 'load',
    title: `${CHATS} chats × ${TURNS} turns with approvals on one angelia serve`,
    cases: total,
    faults: { 'approvals answered at random delays (0–3 s)': scheduled.size },
    held: {
      'turns completed': `${completed}/${total}`,
      'turns lost': total - completed,
      'approvals requested (audit)': requested,
      'approvals answered once (audit)': [...perId.values()].filter((n) => n === 1).length,
      'approvals answered twice (audit)': answeredTwiceAudit,
      'command outputs the model received once': [...outputs.values()].filter((n) => n === 1).length,
      'command outputs the model received twice': figures['answered twice (model: output received twice)'],
      'approvals left pending': pendingLeft,
      'answers refused': refusedAnswers.length,
      "commands failed in bwrap's set-up (Angelia's mount points)": onMade.length,
      "commands failed in bwrap's set-up (floor paths left missing: Codex's race)": onMissing.length,
      [`serve peak RSS (VmHWM), MB (bound ${RSS_TARGET_MB})`]: Math.round(hwm * 10) / 10,
    },
    failures: [...missed, ...(hwm > RSS_TARGET_MB ? [`peak RSS ${hwm.toFixed(1)} MB over ${RSS_TARGET_MB} MB`] : []), ...refusedAnswers.slice(0, 5)],
    facts: {
      seed,
      'wall time (s)': Math.round(wallMs / 1000),
      'sampled peak VmRSS (MB)': Math.round(rssPeak * 10) / 10,
      'VmRSS at the end (MB)': Math.round((mem?.rssMb ?? NaN) * 10) / 10,
      "commands that printed their text (the others failed, e.g. in bwrap's set-up)": ranOk.size,
      ...(otherOutputs.length ? { 'other outputs, e.g.': otherOutputs.join(' / ') } : {}),
      ...(onMade.length + onMissing.length ? { 'bwrap set-up failures, e.g.': [...new Set([...onMade, ...onMissing])].slice(0, 4).join(' / ') } : {}),
      ...(onMissing.length
        ? {
            "why bwrap's set-up failed":
              "codex 0.171.0 makes and removes a placeholder at a missing deny path for each approved escalation and tracks its users per TMPDIR, one per profile: the files Angelia does not make (a tool's parsed config, a missing tool folder) race across profiles (docs/architecture.md 'Sandboxes of many profiles at once')",
          }
        : {}),
      'median answer delay (ms)': [...delays].sort((a, b) => a - b)[Math.floor(delays.length / 2)] ?? 0,
      'load average at start': load0.map((l) => l.toFixed(2)).join(' '),
      'load average at end': loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    },
    startedAt,
    finishedAt: new Date().toISOString(),
  });

  expect(figures).toMatchObject(expected);
  expect(hwm).toBeLessThanOrEqual(RSS_TARGET_MB);
});
