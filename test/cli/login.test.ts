/**
 * `angelia login --api-key` (cli/commands/account.ts `runLogin`) on a fake account service: piped, the
 * key is the first line of standard input; on a terminal it comes from the no-echo prompt (stdin is not
 * read), Ctrl-C there cancels with exit 1 before Codex is asked, an empty key is a usage error (2); the
 * key reaches the service as given and is never printed. The real Codex: test/integration/account.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/api/cli';
import { API_KEY_TAKEN, runLogin } from '../../src/main/cli/commands/account';
import type { AccountService } from '../../src/main/core/account/service';
import type { AccountView, LoginRequest } from '../../src/shared/account';

const KEY = 'sk-proj-login-test-0123456789';

/** An io recording output; `stdin` answers `input` and counts its reads. */
function io(input: string): CliIo & { out: string; err: string; stdinReads: number } {
  const o = {
    env: {},
    cwd: '/',
    out: '',
    err: '',
    stdinReads: 0,
    stdout: (t: string) => void (o.out += t),
    stderr: (t: string) => void (o.err += t),
    stdin: async () => {
      o.stdinReads++;
      return input;
    },
  };
  return o;
}

/** A service that takes any API key and says it is signed in with one. */
function service(): { service: AccountService; logins: LoginRequest[] } {
  const logins: LoginRequest[] = [];
  const view: AccountView = { codexHome: '/home/me/.codex', signedIn: true, method: 'apiKey', email: null, plan: null, requiresOpenaiAuth: true };
  const fake = {
    login: async (req: LoginRequest) => {
      logins.push(req);
      return { loginId: null, method: req.method, state: 'completed', authUrl: null, verificationUrl: null, userCode: null, error: null };
    },
    read: async () => view,
  };
  return { service: fake as unknown as AccountService, logins };
}

describe('angelia login --api-key', () => {
  it('piped: the key is the first line of stdin, never printed', async () => {
    const s = service();
    const o = io(`  ${KEY}  \nsecond line\n`);
    expect(await runLogin(['--api-key'], o, { service: s.service })).toBe(0);
    expect(s.logins).toEqual([{ method: 'apiKey', apiKey: KEY }]);
    expect(o.out).toBe(`Codex is signed in with an API key (Codex home /home/me/.codex).\n${API_KEY_TAKEN}\n`);
    expect(API_KEY_TAKEN).toMatch(/^Codex took the key as given: it does not check it; the model provider does, at the first turn/);
    expect(o.err).toBe('');
  });

  it('piped: an empty first line is a usage error and Codex is not asked', async () => {
    const s = service();
    const o = io('\n');
    expect(await runLogin(['--api-key'], o, { service: s.service })).toBe(2);
    expect(o.err).toMatch(/^angelia login: no API key given/);
    expect(s.logins).toEqual([]);
  });

  it('on a terminal: the key comes from the prompt, stdin is not read', async () => {
    const s = service();
    const o = io('not this');
    const prompts: string[] = [];
    const promptSecret = async (p: string): Promise<string> => {
      prompts.push(p);
      return KEY;
    };
    expect(await runLogin(['--api-key'], o, { service: s.service, promptSecret })).toBe(0);
    expect(prompts).toEqual(['OpenAI API key (not shown; Enter ends, Ctrl-C cancels): ']);
    expect(o.stdinReads).toBe(0);
    expect(s.logins).toEqual([{ method: 'apiKey', apiKey: KEY }]);
    expect(o.out + o.err).not.toContain(KEY);
  });

  it('on a terminal: Ctrl-C at the prompt cancels with exit 1, Codex not asked', async () => {
    const s = service();
    const o = io('');
    expect(await runLogin(['--api-key'], o, { service: s.service, promptSecret: async () => null })).toBe(1);
    expect(o.err).toBe('angelia login: cancelled; Codex is not signed in by it\n');
    expect(s.logins).toEqual([]);
  });

  it('on a terminal: Enter on nothing is a usage error', async () => {
    const s = service();
    const o = io('');
    expect(await runLogin(['--api-key'], o, { service: s.service, promptSecret: async () => '   ' })).toBe(2);
    expect(s.logins).toEqual([]);
  });
});
