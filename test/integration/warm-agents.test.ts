/**
 * Warm agents on real Codex in the real sandbox, with the scripted model (docs/architecture.md "Warm
 * agents"): a chat shown starts its agent before the first message and sends the model nothing; the
 * first turn takes that agent over; a table accepted or a compile made since it started makes it start
 * again before use; and the budget of `[defaults]` holds, the least recently used warm agent stopped first.
 * A profile whose start runs something outside the sandbox (an MCP server, its own `bin`) or has none is
 * never warmed: that start is the person's to make.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import type { CodexConnection } from '../../src/main/core/codex/connection';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { loadTable } from '../../src/main/core/table/load';
import { writeCompiled } from '../fixtures/compiled';
import { guardPath } from '../../src/main/core/compile/guardFile';
import { ChildLedger, childrenFile } from '../../src/main/core/codex/children';
import { makeInstance, retable, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

async function orchestrator(i: TestInstance): Promise<Orchestrator> {
  orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  return orch;
}

/** The chat's Codex once a warm start has attested it (its thread bound), not the one `not` names. */
async function warmConn(o: Orchestrator, chatId: string, not: CodexConnection | null = null): Promise<CodexConnection> {
  return until(`a warm agent for ${chatId}`, () => {
    const c = o.chat(chatId);
    return c.conn !== not && c.conn !== null && c.warm !== null && c.state === 'idle' ? c.conn : null;
  });
}

describe('warm agents', () => {
  it('a chat shown starts its agent with no model request; the first turn takes that agent over', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    const o = await orchestrator(inst);
    await o.api().handlers['chats:shown']({ chatId: 'coder' });
    const conn = await warmConn(o, 'coder');
    expect(o.chat('coder').view().mode?.source).toBe('attested');
    expect(inst.model.modelRequests()).toEqual([]);

    inst.model.enqueue({ message: 'warm hello' });
    const items = await turnOn(o, 'coder', 'hi');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(o.chat('coder').conn).toBe(conn);
    expect(o.chat('coder').warm).toBeNull();
    expect(inst.model.modelRequests()).toHaveLength(1);
  });

  it('a profile whose start runs something outside the sandbox (an MCP server) or has no sandbox is never warmed', async () => {
    const i = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    inst = i;
    const marker = join(i.root, 'mcp-ran');
    const table = {
      capabilities: { tool: { kind: 'mcp', command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] } },
      profiles: {
        coder: { cwd: i.cwd.coder, permission_mode: 'default' },
        withmcp: { cwd: i.cwd.coder, permission_mode: 'default', capabilities: ['tool'] },
        open: { cwd: i.cwd.coder, permission_mode: 'default', sandbox: false },
      },
    };
    await writeFile(i.paths.tableFile, stringify(table));
    await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));
    const o = await orchestrator(i);
    for (const id of ['withmcp', 'open']) {
      // The warmer has planned once the handler returns: a start it makes is under way by then.
      await o.api().handlers['chats:shown']({ chatId: id });
      expect(o.chat(id).starting, id).toBeNull();
      expect(o.chat(id).conn, id).toBeNull();
    }
    // The control: the plain profile is warmed as before.
    await o.api().handlers['chats:shown']({ chatId: 'coder' });
    await warmConn(o, 'coder');
    expect(existsSync(marker)).toBe(false);
    expect(i.model.modelRequests()).toEqual([]);
  });

  it('a warm chat is started again when the table changed, and before use when the profile was compiled since', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    const o = await orchestrator(inst);
    void o.warmer.shown('coder');
    const first = await warmConn(o, 'coder');

    // An accepted table: the warm agent is stopped and started again under it.
    await o.useTable(await retable(inst, { profiles: { coder: { cwd: inst.cwd.coder, permission_mode: 'acceptEdits' } } }));
    const second = await warmConn(o, 'coder', first);
    await first.exited;
    expect(o.chat('coder').view().mode?.permissionMode).toBe('acceptEdits');

    // A compile since it started (`angelia compile --write` in a terminal rewrites the launch guard; a compile
    // that changes nothing leaves it alone, so it is rewritten here as it was): the first turn starts a new agent.
    const guard = guardPath(inst.paths.stateDir, 'coder');
    await writeFile(guard, await readFile(guard));
    inst.model.enqueue({ message: 'fresh' });
    const items = await turnOn(o, 'coder', 'hi');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(o.chat('coder').conn).not.toBe(second);
    expect(o.chat('coder').conn).not.toBeNull();
    expect(inst.model.modelRequests()).toHaveLength(1);
  });

  it('shutting down while a warm start is in progress leaves no Codex running', async () => {
    inst = await makeInstance({ coder: {} }, { privateHome: true });
    const o = await orchestrator(inst);
    void o.warmer.shown('coder');
    await until('a warm start in progress', () => o.chat('coder').starting !== null);
    orch = null;
    await o.shutdown();
    const ledger = new ChildLedger(childrenFile(inst.paths.stateDir));
    await until('no Codex recorded', () => ledger.list().length === 0);
    expect(o.chat('coder').conn).toBeNull();
  });

  it('the budget holds: the least recently shown warm agent is stopped first', async () => {
    inst = await makeInstance({ a: {}, b: {}, c: {} }, { privateHome: true, defaults: { warm_agents: 2 } });
    const o = await orchestrator(inst);
    void o.warmer.shown('a');
    const a = await warmConn(o, 'a');
    void o.warmer.shown('b');
    await warmConn(o, 'b');
    void o.warmer.shown('c');
    await warmConn(o, 'c');
    await a.exited;
    expect(o.chat('a').conn).toBeNull();
    expect(o.chat('b').conn).not.toBeNull();
    expect(inst.model.modelRequests()).toEqual([]);
  });
});
