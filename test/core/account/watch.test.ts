/**
 * AccountService.watchHome: `angelia login|logout` run in a terminal creates, rewrites or removes
 * `CODEX_HOME/auth.json`; a running host reads the account again and tells `onUpdated` (the orchestrator's
 * `account:updated`). Codex is faked: its `account/read` answers from the auth.json on disk.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountView } from '../../../src/shared/account';
import type { CodexConnection } from '../../../src/main/core/codex/connection';
import { AccountService } from '../../../src/main/core/account/service';

const dirs: string[] = [];
const services: AccountService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.dispose()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fake app-server whose `account/read` reports the auth.json of `home` (an API key when it says so). */
function fakeConnection(home: string, reads: { n: number; last?: string | null }): CodexConnection {
  const file = join(home, 'auth.json');
  return {
    version: '0.169.0',
    request: (async (method: string) => {
      if (method !== 'account/read') throw new Error(`unexpected ${method}`);
      reads.n += 1;
      reads.last = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (reads.last === null) return { account: null, requiresOpenaiAuth: true };
      const auth = JSON.parse(reads.last) as { OPENAI_API_KEY?: string | null };
      return { account: auth.OPENAI_API_KEY ? { type: 'apiKey' } : null, requiresOpenaiAuth: true };
    }) as CodexConnection['request'],
    onServerRequest: () => undefined,
    onEvent: () => undefined,
    exited: new Promise(() => undefined),
    stop: async () => undefined,
    kill: () => undefined,
  };
}

/** A watching service over a fresh Codex home, and the accounts it told, each awaited in turn. */
async function watching(): Promise<{ home: string; next: () => Promise<AccountView>; reads: { n: number; last?: string | null }; told: AccountView[] }> {
  const home = join(mkdtempSync(join(tmpdir(), 'angelia-account-watch-')), 'codex-home');
  dirs.push(join(home, '..'));
  const reads = { n: 0 };
  const told: AccountView[] = [];
  const waiters: ((v: AccountView) => void)[] = [];
  let seen = 0;
  const service = new AccountService({
    codexHome: home,
    env: process.env,
    start: async () => fakeConnection(home, reads),
    watchDebounceMs: 20,
    onUpdated: (v) => {
      told.push(v);
      waiters.shift()?.(v);
    },
  });
  services.push(service);
  await service.watchHome();
  const next = (): Promise<AccountView> => {
    const i = seen++;
    return i < told.length ? Promise.resolve(told[i] as AccountView) : new Promise((resolve) => waiters.push(resolve));
  };
  return { home, next, reads, told };
}

describe('AccountService.watchHome', () => {
  it('creates the missing Codex home, then tells a sign-in and a sign-out made elsewhere', async () => {
    const w = await watching();
    expect(existsSync(w.home)).toBe(true);
    const signedIn = w.next();
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-test' }));
    expect(await signedIn).toMatchObject({ codexHome: w.home, signedIn: true, method: 'apiKey' });
    const signedOut = w.next();
    rmSync(join(w.home, 'auth.json'));
    expect(await signedOut).toMatchObject({ codexHome: w.home, signedIn: false, method: null });
  });

  it('tells nothing when auth.json is rewritten with the same account, and the next change after it', async () => {
    const w = await watching();
    const first = w.next();
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-test' }));
    expect((await first).signedIn).toBe(true);
    // A token refresh rewrites the file: read again (the read of the new text is waited on), not told.
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-test', last_refresh: 'now' }));
    await expect.poll(() => w.reads.last, { timeout: 10_000 }).toContain('last_refresh');
    const out = w.next();
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: null }));
    expect((await out).signedIn).toBe(false);
    expect(w.told.map((v) => v.signedIn)).toEqual([true, false]);
  });

  it('stops following after dispose', async () => {
    const w = await watching();
    await Promise.all(services.splice(0).map((s) => s.dispose()));
    const readsBefore = w.reads.n;
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-test' }));
    // A second, live watch over the same home sees the next change: by then the closed one would have read too.
    const live = new AccountService({ codexHome: w.home, env: process.env, start: async () => fakeConnection(w.home, { n: 0 }), watchDebounceMs: 20 });
    services.push(live);
    const seen = new Promise<AccountView>((resolve) => {
      (live as unknown as { deps: { onUpdated: (v: AccountView) => void } }).deps.onUpdated = resolve;
    });
    await live.watchHome();
    writeFileSync(join(w.home, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: null }));
    await seen;
    expect(w.reads.n).toBe(readsBefore);
    expect(w.told).toEqual([]);
  });
});
