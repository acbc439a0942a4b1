/**
 * The environment of an agent's commands on REAL Codex (0.169.0, Linux bubblewrap), through the
 * orchestrator the hosts use; only the model is scripted (docs/security-model.md "Environment of the
 * agent's commands"). Angelia runs with secrets in its environment whose names no pattern catches
 * (`DATABASE_URL` with a password, `SENTRY_DSN`, `GH_PAT`, `CI_JOB_JWT`, …). The agent's commands —
 * a plain shell and a login shell — get only the plain variables, what Angelia sets on purpose and the
 * names the profile passes (`env = [...]`); no secret value is in a command's output, in a shell snapshot
 * Codex wrote (`CODEX_HOME/shell_snapshots/*`, when it writes them) or in anything the model received.
 * Measured before the fix: every one of these secrets was in `env` and in the snapshot.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { makeInstance, turnOn, type TestInstance, type TestProfile, commandItems } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** Secrets in Angelia's environment, named as real ones are (none matches *KEY*, *TOKEN*, *SECRET*, *PASSWORD*). */
const SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://app:pw-9d1e-leak@db.internal:5432/app',
  SENTRY_DSN: 'https://dsn-4c2a-leak@o1.ingest.sentry.io/1',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/hook-77f3-leak',
  GH_PAT: 'ghp_pat-51b0-leak',
  CI_JOB_JWT: 'eyJ.jwt-0e6d-leak.sig',
  VAULT_ROLE_ID: 'role-a8c4-leak',
  PLAIN_LOOKING: 'plain-3f5e-leak',
  // Names Codex sets itself for a command (its network proxy, its pager): the value must be Codex's, not Angelia's.
  HTTPS_PROXY: 'http://corp:proxy-6a1d-leak@proxy.internal:3128',
  GIT_PAGER: 'pager-c09b-leak',
};

/** What a command may see: plain variables, Angelia's own, and the ones Codex sets itself for a command. */
const PLAIN = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TERM|TZ|TMPDIR|TMP|TEMP|PWD|OLDPWD|SHLVL|_)$/;
const ANGELIA = /^(npm_config_cache|UV_CACHE_DIR|PIP_CACHE_DIR|XDG_CACHE_HOME|ANGELIA_MAILBOX|ANGELIA_SESSION_KEY|ANGELIA_API_SOCK|ANGELIA_ASK)$/;
/**
 * Set by Codex 0.169.0 itself for a command, whatever its environment: its own `CODEX_*` (thread, session,
 * tool call, version, permission profile), the unified-exec terminal settings (`NO_COLOR`, `COLORTERM`,
 * `PAGER`, `GIT_PAGER`, `GH_PAGER`) and its network proxy's addresses (`HTTPS_PROXY`, `npm_config_proxy`,
 * `NODE_USE_ENV_PROXY`, … all 127.0.0.1). Their values are Codex's (SECRETS holds two of these names).
 */
const CODEX =
  /^(CODEX_[A-Z_]+|NO_COLOR|COLORTERM|PAGER|GIT_PAGER|GH_PAGER|NODE_USE_ENV_PROXY|ELECTRON_GET_USE_PROXY|[A-Z_]*_?PROXY|[a-z_]*_?proxy|[A-Z_]*NOPROXY|[a-z_]*noproxy)$/;

/** Variable names of `env` output (a value may span lines; names are at the start of `NAME=` lines). */
function names(envOutput: string): string[] {
  return [
    ...new Set(
      envOutput
        .split('\n')
        .map((l) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(l)?.[1])
        .filter((n): n is string => n !== undefined),
    ),
  ].sort();
}

const commands = commandItems;

/** Every file Codex wrote into CODEX_HOME/shell_snapshots (none when Codex keeps no snapshots). */
async function snapshots(codexHome: string): Promise<{ file: string; text: string }[]> {
  const dir = join(codexHome, 'shell_snapshots');
  const files = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(files.map(async (f) => ({ file: f, text: await readFile(join(dir, f), 'utf8').catch(() => '') })));
}

/**
 * Runs, as profile coder's agent (permission_mode default): `env` in a plain and in a login shell, the
 * environment of every process the command can see (`/proc/<pid>/environ`: Codex's own, whose
 * environment is Angelia's, if it were visible), and both again in a command approved to run outside the
 * sandbox (escalated; Allow from the window). Answers the four outputs.
 */
async function envOfCommands(profile: TestProfile): Promise<{ plain: string; login: string; proc: string; escalated: string }> {
  inst = await makeInstance({ coder: profile }, { privateHome: true });
  Object.assign(inst.env, SECRETS, { PASSED_ON_PURPOSE: 'given-2b7c' });
  inst.model.enqueue(
    { exec: { cmd: 'echo BEGIN-PLAIN; env; echo END-PLAIN', login: false } },
    { exec: { cmd: 'echo BEGIN-LOGIN; env; echo END-LOGIN', login: true } },
    // Every process the command can see, Codex itself included if it could (its environment is Angelia's).
    { exec: { cmd: `echo BEGIN-PROC; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done 2>/dev/null; echo END-PROC`, login: false } },
    {
      exec: {
        cmd: `echo BEGIN-ESCALATED; env; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done 2>/dev/null; echo END-ESCALATED`,
        login: false,
        sandbox_permissions: 'require_escalated',
        justification: 'show the environment outside the sandbox',
      },
    },
    { message: 'done' },
  );
  const o = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
  orch = o;
  o.hub.subscribe((e) => {
    if (e.event === 'approval:updated' && e.payload.state === 'pending') o.broker.answer(e.payload.id, 'allow', 'window');
  });
  const items = await turnOn(o, 'coder', 'show your environment');
  expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
  const outputs = commands(items).map((c) => c.output ?? '');
  const plain = outputs.find((t) => t.includes('END-PLAIN')) ?? '';
  const login = outputs.find((t) => t.includes('END-LOGIN')) ?? '';
  const proc = outputs.find((t) => t.includes('END-PROC')) ?? '';
  const escalated = outputs.find((t) => t.includes('END-ESCALATED')) ?? '';
  for (const out of [plain, login, proc, escalated]) expect(out, JSON.stringify(outputs)).toContain('HOME=');
  return { plain, login, proc, escalated };
}

describe("the environment of an agent's commands on real codex", () => {
  it("secrets in Angelia's environment reach no command, no shell snapshot and no model request; only plain and Angelia's own variables do", async () => {
    const { plain, login, proc, escalated } = await envOfCommands({ permission_mode: 'default' });
    const i = inst!;
    const leaks = (text: string): string[] =>
      Object.entries({ ...SECRETS, PASSED_ON_PURPOSE: 'given-2b7c' })
        .filter(([, v]) => text.includes(v))
        .map(([k]) => k);
    for (const [what, out] of [
      ['plain shell', plain],
      ['login shell', login],
      ['/proc/*/environ', proc],
      ['escalated', escalated],
    ] as const) {
      expect(leaks(out), `${what}: ${out}`).toEqual([]);
    }
    for (const s of await snapshots(i.paths.codexHome)) expect(leaks(s.text), `shell snapshot ${s.file}`).toEqual([]);
    for (const r of i.model.modelRequests()) expect(leaks(JSON.stringify(r.body))).toEqual([]);
    // Only what is allowed, by name, whatever its value.
    for (const [what, out] of [
      ['plain shell', plain],
      ['login shell', login],
      ['escalated', escalated],
    ] as const) {
      const unexpected = names(out).filter((n) => !PLAIN.test(n) && !ANGELIA.test(n) && !CODEX.test(n));
      expect(unexpected, `${what}: ${names(out).join(' ')}`).toEqual([]);
    }
    // What the in-sandbox `angelia` command needs is there (api/client.ts), its token is not.
    expect(plain).toContain(`ANGELIA_SESSION_KEY=coder`);
    expect(plain).toMatch(/^ANGELIA_MAILBOX=\//m);
    expect(plain).toMatch(/^ANGELIA_API_SOCK=\//m);
    expect(plain).toMatch(/^TMPDIR=\//m);
    expect(plain).not.toMatch(/^ANGELIA_API_TOKEN=/m);
  });

  it('a name the profile passes on purpose (env = ["PASSED_ON_PURPOSE"]) reaches its commands, with its value', async () => {
    const { plain, login } = await envOfCommands({ permission_mode: 'default', env: ['PASSED_ON_PURPOSE'] } as TestProfile);
    expect(plain).toMatch(/^PASSED_ON_PURPOSE=given-2b7c$/m);
    expect(login).toMatch(/^PASSED_ON_PURPOSE=given-2b7c$/m);
    expect(plain).not.toContain(SECRETS.DATABASE_URL);
  });
});
