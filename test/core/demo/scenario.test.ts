import { describe, expect, it } from 'vitest';
import { demoPrompts, demoResponder, demoRowFor, parseExecOutput, shellQuote } from '../../../src/main/demo/scenario';
import type { ResponsesRequestBody, Step } from '../../../src/main/demo/scriptedModel';

const opts = { secretPath: '/home/demo/.ssh/id_demo', outsideDir: '/work/shared folder/', deltaDelayMs: 0 };
const respond = demoResponder(opts);
const OUTSIDE = '/work/shared folder';

interface Call {
  name: string;
  args?: Record<string, unknown>;
  output: string;
}

/** A request body as Codex sends it: env context, the user's text, then this turn's calls and outputs. */
function body(text: string, calls: Call[] = []): ResponsesRequestBody {
  const input: ResponsesRequestBody['input'] = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n</environment_context>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  ];
  calls.forEach((c, i) => {
    input.push({ type: 'function_call', name: c.name, call_id: `call_${i}`, arguments: JSON.stringify(c.args ?? {}) });
    input.push({ type: 'function_call_output', call_id: `call_${i}`, output: c.output });
  });
  return { input };
}

async function ask(text: string, calls: Call[] = []): Promise<Step> {
  return respond(body(text, calls), {
    index: 0,
    method: 'POST',
    path: '/v1/responses',
    headers: {},
    body: null,
    source: 'responder',
    callIds: [],
    receivedAt: 0,
  });
}

const execOut = (code: number, out: string) =>
  `Chunk ID: 1\nWall time: 0.01 seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${out}`;
const text = (s: Step): string => ('message' in s ? s.message : '');

describe('demo responder', () => {
  it('answers anything else with a markdown message streamed in several deltas', async () => {
    const s = await ask('hello');
    expect(s).toMatchObject({ message: expect.stringContaining('## Hello') });
    expect('message' in s && (s.chunks ?? 0)).toBeGreaterThanOrEqual(3);
  });

  it('"run": lists the workspace in the sandbox, then summarises what ls printed', async () => {
    expect(await ask('please run ls')).toEqual({ exec: { cmd: 'ls -la' } });
    const listing =
      'total 8\ndrwxr-xr-x 3 u u 4096 Nov 30 18:33 .\ndrwx------ 6 u u 4096 Nov 30 18:33 ..\ndr-xr-xr-x 2 u u 40 Nov 30 18:33 .git\n-rw-r--r-- 1 u u 2 Nov 30 18:33 notes.md\n-rw-r--r-- 1 u u 2 Nov 30 18:33 my file.txt\n';
    const s = text(await ask('please run ls', [{ name: 'exec_command', output: execOut(0, listing) }]));
    expect(s).toContain('**2** entries');
    expect(s).toContain('- `notes.md`');
    expect(s).toContain('- `my file.txt`');
    expect(s).toContain('`.git`');
  });

  it('"secret": cats the denied file, then says honestly that the sandbox blocked it', async () => {
    expect(await ask('show me the secret')).toEqual({ exec: { cmd: `cat '/home/demo/.ssh/id_demo'` } });
    const blocked = text(await ask('show me the secret', [{ name: 'exec_command', output: execOut(1, 'cat: /home/demo/.ssh/id_demo: Permission denied\n') }]));
    expect(blocked).toContain('the sandbox blocked it');
    expect(blocked).toContain('Permission denied');
    const open = text(await ask('show me the secret', [{ name: 'exec_command', output: execOut(0, 'KEY') }]));
    expect(open).toContain('**not** blocked');
  });

  it('"access": requests write access to the folder, writes there once granted, reports; says so when refused', async () => {
    expect(await ask('I need access')).toEqual({
      requestPermissions: { reason: `Write a note into ${OUTSIDE}`, permissions: { file_system: { write: [OUTSIDE] } } },
    });
    const granted = JSON.stringify({ permissions: { network: null, file_system: { write: [OUTSIDE] } }, scope: 'turn' });
    const write = await ask('I need access', [{ name: 'request_permissions', output: granted }]);
    expect('exec' in write && write.exec.cmd).toContain(shellQuote(`${OUTSIDE}/angelia-demo-access.txt`));
    expect('exec' in write && write.exec.sandbox_permissions).toBeUndefined();
    const done = text(
      await ask('I need access', [
        { name: 'request_permissions', output: granted },
        { name: 'exec_command', output: execOut(0, '-rw-r--r-- 1 u u 34 f\n') },
      ]),
    );
    expect(done).toContain('Done: I wrote');
    const refused = JSON.stringify({ permissions: { network: null, file_system: null }, scope: 'turn' });
    expect(text(await ask('I need access', [{ name: 'request_permissions', output: refused }]))).toContain('was not granted');
  });

  it('"write outside": asks for an escalated command with a justification, then reports approval or refusal', async () => {
    const s = await ask('write outside please');
    expect(s).toMatchObject({ exec: { sandbox_permissions: 'require_escalated', justification: expect.stringContaining(OUTSIDE) } });
    expect('exec' in s && s.exec.cmd).toContain(shellQuote(`${OUTSIDE}/angelia-demo-escalated.txt`));
    const declined = 'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }';
    expect(text(await ask('write outside please', [{ name: 'exec_command', output: declined }]))).toContain('You declined');
    expect(text(await ask('write outside please', [{ name: 'exec_command', output: execOut(0, 'wrote\n') }]))).toContain('with your approval');
  });

  it('answers a compaction request with a summary', async () => {
    const s = await ask('You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary');
    expect(text(s)).toContain('Summary');
  });

  it('publishes one example prompt per row, each answered by its own row', () => {
    expect(demoPrompts.map((p) => demoRowFor(p.prompt))).toEqual(['write-outside', 'access', 'secret', 'run', 'hello']);
    for (const p of demoPrompts) expect(p.shows.length).toBeGreaterThan(10);
  });

  it('reads exec outputs: exit code, output text, user rejection', () => {
    expect(parseExecOutput(execOut(2, 'x\n'))).toEqual({ exitCode: 2, output: 'x', rejected: false });
    expect(parseExecOutput('exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }').rejected).toBe(true);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
