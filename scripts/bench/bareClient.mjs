#!/usr/bin/env node
/**
 * The bare NDJSON client of the turn-overhead benchmark, as its own minimal Node process (side A): no
 * TypeScript, no dependencies, none of Angelia's code — only node:child_process and a newline splitter.
 * It runs ONE turn on `codex app-server` exactly as told and exits:
 *
 *   node scripts/bench/bareClient.mjs <launch.json>
 *
 * `launch.json`: `{ bin, args (ending with "app-server"), cwd, env (added to this process's environment;
 * a null value removes the variable), fullEnv? (the child's whole environment instead), codexHome, prompt,
 * resume? (a thread id: thread/resume instead of thread/start), thread? (extra thread/start|resume
 * params), timeoutMs? }`.
 * Steps: spawn → `initialize {clientInfo, capabilities:{experimentalApi:true}}` → `initialized` →
 * `thread/resume {threadId, cwd, approvalPolicy:"on-request", approvalsReviewer:"user", ...thread}` (or
 * `thread/start`) → `turn/start` with one text input → wait for that turn's `turn/completed` → close stdin →
 * wait for the child's exit → print one JSON line and exit 0 (1 when anything failed).
 * Server requests (approvals) are declined. Wire facts, measured on codex-cli 0.169.0: one JSON object a line, no `jsonrpc` member needed, server requests carry `id` and `method`.
 *
 * The JSON line: `{ok, threadId, status, text, error?, marks: {spawn, initialize, thread, turnStart,
 * turnCompleted, codexExit, end}}`, each mark in ms since this process's `performance.timeOrigin`.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const marks = {};
const mark = (name) => {
  marks[name] = performance.now();
};

function fail(message) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: message, marks })}\n`);
  process.exit(1);
}

const file = process.argv[2];
if (!file) fail('usage: node bareClient.mjs <launch.json>');
const launch = JSON.parse(readFileSync(file, 'utf8'));
// `fullEnv`: exactly the environment Angelia gave its child; otherwise this process's, with `env` applied.
const env = launch.fullEnv ? { ...launch.fullEnv } : { ...process.env, CODEX_HOME: launch.codexHome, RUST_LOG: 'warn' };
for (const [k, v] of Object.entries(launch.fullEnv ? {} : (launch.env ?? {}))) {
  if (v === null) delete env[k];
  else env[k] = v;
}

mark('spawn');
const child = spawn(launch.bin, launch.args, { cwd: launch.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
let stderr = '';
child.stderr.setEncoding('utf8').on('data', (c) => {
  stderr = (stderr + c).slice(-4000);
});
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
child.on('error', (e) => fail(`spawn ${launch.bin}: ${e.message}`));

let nextId = 1;
const pending = new Map();
const listeners = [];
const texts = [];
let buffer = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (!line) continue;
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      continue;
    }
    if (m.method !== undefined && m.id !== undefined) {
      // A server request (an approval): decline it.
      child.stdin.write(`${JSON.stringify({ id: m.id, result: { decision: 'decline' } })}\n`);
    } else if (m.method !== undefined) {
      if (m.method === 'item/completed' && m.params?.item?.type === 'agentMessage') texts.push(String(m.params.item.text ?? ''));
      for (const l of [...listeners]) l(m);
    } else if (pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
      else p.resolve(m.result);
    }
  }
});

function request(method, params) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, method });
    child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
  });
}

function waitFor(match) {
  return new Promise((resolve) => {
    const l = (m) => {
      if (!match(m)) return;
      listeners.splice(listeners.indexOf(l), 1);
      resolve(m);
    };
    listeners.push(l);
  });
}

const timer = setTimeout(() => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  fail(`timed out; codex stderr: ${stderr.slice(-400)}`);
}, launch.timeoutMs ?? 120_000);

try {
  await Promise.race([
    request('initialize', { clientInfo: { name: 'bench-bare', title: 'bench', version: '0' }, capabilities: { experimentalApi: true } }),
    exited.then((e) => Promise.reject(new Error(`codex exited before initialize (${e.code ?? e.signal}): ${stderr.slice(-400)}`))),
  ]);
  mark('initialize');
  child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
  const threadParams = { cwd: launch.cwd, approvalPolicy: 'on-request', approvalsReviewer: 'user', ...launch.thread };
  const started = await (launch.resume ? request('thread/resume', { threadId: launch.resume, ...threadParams }) : request('thread/start', threadParams));
  mark('thread');
  const threadId = started.thread.id;
  mark('turnStart');
  const turn = await request('turn/start', { threadId, input: [{ type: 'text', text: launch.prompt, text_elements: [] }] });
  const turnId = turn.turn.id;
  const done = await waitFor((m) => m.method === 'turn/completed' && (m.params?.turnId ?? m.params?.turn?.id) === turnId);
  mark('turnCompleted');
  child.stdin.end();
  await exited;
  mark('codexExit');
  clearTimeout(timer);
  const status = done.params?.turn?.status ?? 'unknown';
  mark('end');
  process.stdout.write(`${JSON.stringify({ ok: status === 'completed', threadId, status, text: texts.join('\n\n'), marks })}\n`);
  // After the last mark (outside the timing): codex's sandbox helpers (`bwrap … --codex-run-as-fs-helper`)
  // stay in its session and outlive it; without this each bare run left one behind (Angelia reaps them,
  // reap.ts). Linux /proc; fields after "(comm) ": state ppid pgrp session.
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]) === child.pid) process.kill(Number(name), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
} catch (e) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  fail(e instanceof Error ? e.message : String(e));
}
