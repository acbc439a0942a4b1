/**
 * The cheaper start tells the agent the same (compile/projectRoot.ts; docs/benchmarks.md "Cheaper
 * starts"): a profile whose folder lies below a git repository that no grant reaches is launched with
 * `project_root_markers = []`, and the model is sent the same instructions as under Codex's own search
 * (the launch without the flag): the folder's CLAUDE.md, never the AGENTS.md of the repository above,
 * which the sandbox does not show. Real Codex in the real sandbox, scripted model.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planLaunch } from '../../src/main/core/launch/plan';
import { loadTable } from '../../src/main/core/table/load';
import { BareCodex, runTurn } from '../fixtures/bareCodex';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance | null = null;
afterEach(async () => {
  await inst?.cleanup();
  inst = null;
});

/** One turn on a fresh thread with `args`; the texts its model request carried. */
async function toldWith(
  i: TestInstance,
  args: string[],
  spawn: { bin: string; cwd: string; env: NodeJS.ProcessEnv },
  params: Record<string, unknown>,
): Promise<string> {
  const codex = BareCodex.spawn({ bin: spawn.bin, args, cwd: spawn.cwd, env: spawn.env, codexHome: i.paths.codexHome });
  try {
    await codex.initialize();
    const started = await codex.request<{ thread: { id: string } }>('thread/start', params);
    const before = i.model.modelRequests().length;
    i.model.enqueue({ message: 'ok' });
    expect((await runTurn(codex, started.thread.id, 'hello')).status).toBe('completed');
    const body = i.model.modelRequests()[before]?.body as { input?: { content?: { text?: string }[] }[] };
    // Every text the model is sent (the instruction files Codex found, the environment context, the
    // message), with the one name that differs per process (Codex's own temporary `codex-arg0…` folder) made equal.
    const texts = (body.input ?? []).flatMap((m) => (m.content ?? []).map((c) => c.text ?? ''));
    return texts.join('\n---\n').replace(/codex-arg0\w+/g, 'codex-arg0*');
  } finally {
    await codex.close();
  }
}

describe('project_root_markers = [] when no marker is visible from the sandbox', () => {
  it('the launch carries the flag and the model is told exactly what Codex tells it without it', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    // A repository around the profile folder (work/ holds every profile folder), with instructions of its own.
    const repo = join(inst.root, 'work');
    await mkdir(join(repo, '.git'), { recursive: true });
    await writeFile(join(repo, 'AGENTS.md'), 'SENTINEL-REPO: not for this agent\n');
    await writeFile(join(inst.cwd.coder!, 'CLAUDE.md'), 'SENTINEL-FOLDER: the profile says hello\n');
    const table = await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env });
    const plan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths: inst.paths, env: inst.env });
    const args = plan.spawn.args.slice(0, -1);
    const at = args.indexOf('project_root_markers=[]');
    expect(at).toBeGreaterThan(0);
    const without = [...args.slice(0, at - 1), ...args.slice(at + 1)];

    const withFlag = await toldWith(inst, args, plan.spawn, plan.threadParams as Record<string, unknown>);
    const withoutFlag = await toldWith(inst, without, plan.spawn, plan.threadParams as Record<string, unknown>);
    expect(withFlag).toContain('SENTINEL-FOLDER');
    expect(withFlag).not.toContain('SENTINEL-REPO');
    expect(withFlag).toBe(withoutFlag);
  });
});
