/**
 * The sign-in gate on the real pinned Codex (0.169.0, codex/signInGate.ts): with a model provider that
 * needs OpenAI auth (`requires_openai_auth = true`) and Codex not signed in, `angelia run` is refused at
 * the start with "Codex is not signed in" and the fix, exit 3, and the scripted model receives no request
 * (before the gate, Codex sent the turn with no credentials and retried the 401: "Reconnecting... n/5").
 * The same provider signed in runs as before: test/integration/account.test.ts.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { offlineCodexConfig } from '../../src/main/demo/codexHome';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { REPO_ROOT } from '../core/instance/testDir';

let inst: TestInstance | null = null;

afterEach(async () => {
  await inst?.cleanup();
  inst = null;
});

/** Runs `angelia <args>` from the source entry with `env`; resolves with its exit code and output. */
function angelia(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/index.ts'), ...args], { env, cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

describe('the sign-in gate (real codex)', () => {
  it('angelia run, not signed in where the provider needs OpenAI auth: refused at once, no model request', async () => {
    inst = await makeInstance({ alpha: {} }, { script: () => ({ httpError: { status: 401, body: { error: { message: 'Missing bearer' } } } }) });
    const config = offlineCodexConfig({ modelBaseUrl: inst.model.baseUrl }) as { model_providers: { mock: Record<string, unknown> } };
    config.model_providers.mock.requires_openai_auth = true;
    writeFileSync(join(inst.paths.codexHome, 'config.toml'), stringify(config));
    const run = await angelia(inst.env, ['run', 'alpha', 'hello', '--json']);
    expect(run.stderr).toMatch(
      /^angelia: Codex is not signed in, and its model provider needs an OpenAI sign-in, so no turn was sent\. Fix: Sign in with `angelia login`/m,
    );
    expect(run.code).toBe(3);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    expect(last).toMatchObject({ type: 'turn-end', ok: false });
    expect(last.reason).toMatch(/^Codex is not signed in/);
    expect(inst.model.modelRequests()).toEqual([]);
  });
});
