import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Message } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, NdjsonMessageWriter, type ReaderIssue } from '../../../src/main/core/codex/jsonl';

/** A reader over a PassThrough; collects messages, issues and the close event. */
function setup(maxLineBytes?: number) {
  const stream = new PassThrough();
  const messages: Record<string, unknown>[] = [];
  const issues: ReaderIssue[] = [];
  const reader = new NdjsonMessageReader(stream, { maxLineBytes, onIssue: (i) => issues.push(i) });
  let closed = false;
  reader.onClose(() => {
    closed = true;
  });
  reader.listen((m) => messages.push(m as unknown as Record<string, unknown>));
  const flush = () => new Promise<void>((r) => setImmediate(r));
  return { stream, messages, issues, reader, flush, isClosed: () => closed };
}

const DELTA_LINE = '{"method":"item/agentMessage/delta","params":{"delta":"猫😀\u2028end"}}\n';

describe('NdjsonMessageReader', () => {
  it('reassembles a message whose 猫 and 😀 bytes are split across chunks, keeping a raw U+2028 inside the string', async () => {
    const { stream, messages, flush } = setup();
    const bytes = Buffer.from(DELTA_LINE, 'utf8');
    const cat = bytes.indexOf(Buffer.from([0xe7, 0x8c, 0xab]));
    // …E7 8C | AB F0 9F | 98 80 … (multibyte characters split across pipe chunks)
    stream.write(bytes.subarray(0, cat + 2));
    stream.write(bytes.subarray(cat + 2, cat + 5));
    stream.write(bytes.subarray(cat + 5));
    await flush();
    expect(messages).toHaveLength(1);
    const params = messages[0]?.params as { delta: string };
    expect(params.delta).toBe('猫😀\u2028end');
    expect(params.delta).not.toContain('\ufffd');
  });

  it('splits on \\n only: U+2029 and U+2028 in strings do not end a line; CRLF is accepted', async () => {
    const { stream, messages, flush } = setup();
    stream.write('{"id":1,"result":{"a":"x\u2029y"}}\r\n{"id":2,"result":{"b":"\u2028"}}\n');
    await flush();
    expect(messages).toEqual([
      { id: 1, result: { a: 'x\u2029y' } },
      { id: 2, result: { b: '\u2028' } },
    ]);
  });

  it('passes a 5 MB line (an item/completed with big command output)', async () => {
    const { stream, messages, issues, flush } = setup();
    const output = 'x'.repeat(5_000_000);
    const line = Buffer.from(`${JSON.stringify({ method: 'item/completed', params: { item: { aggregatedOutput: output } } })}\n`);
    for (let i = 0; i < line.length; i += 65_536) stream.write(line.subarray(i, i + 65_536));
    await flush();
    expect(issues).toEqual([]);
    expect(messages).toHaveLength(1);
    expect((messages[0]?.params as { item: { aggregatedOutput: string } }).item.aggregatedOutput.length).toBe(5_000_000);
  });

  it('drops a line over the cap, reports its size, and still delivers the next message', async () => {
    const { stream, messages, issues, flush, isClosed } = setup(1024);
    const big = `{"method":"item/completed","params":{"out":"${'y'.repeat(4000)}"}}`;
    stream.write(big.slice(0, 1500));
    stream.write(`${big.slice(1500)}\n{"id":7,"result":{"ok":true}}\n`);
    await flush();
    expect(issues).toEqual([{ kind: 'oversize', bytes: Buffer.byteLength(big), maxBytes: 1024 }]);
    expect(messages).toEqual([{ id: 7, result: { ok: true } }]);
    expect(isClosed()).toBe(false);
  });

  it('skips a "Welcome!" banner, a bracketed-paste escape line and non-object JSON, and keeps reading', async () => {
    const { stream, messages, issues, flush } = setup();
    stream.write('Welcome!\n\u001b[?2004h\n[1,2]\n\n{"method":"thread/started","params":{}}\n');
    await flush();
    expect(messages).toEqual([{ method: 'thread/started', params: {} }]);
    expect(issues.map((i) => i.kind)).toEqual(['not-json', 'not-json', 'not-object']);
    expect(issues[0]).toMatchObject({ kind: 'not-json', preview: 'Welcome!' });
  });

  it('reads a JSON message that a shell prefixed with an escape sequence', async () => {
    const { stream, messages, flush } = setup();
    stream.write('\u001b[?2004h{"id":3,"result":{}}\n');
    await flush();
    expect(messages).toEqual([{ id: 3, result: {} }]);
  });

  it('processes a last line without \\n at end of stream, then reports close', async () => {
    const { stream, messages, flush, isClosed } = setup();
    stream.end('{"id":9,"result":null}');
    await flush();
    expect(messages).toEqual([{ id: 9, result: null }]);
    expect(isClosed()).toBe(true);
  });
});

describe('NdjsonMessageWriter', () => {
  it('writes one line per message, without "jsonrpc", with U+2028/U+2029 escaped', async () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const writer = new NdjsonMessageWriter(stream);
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'turn/start', params: { text: 'a\u2028b\u2029c 猫' } } as Message);
    await writer.write({ jsonrpc: '2.0', method: 'initialized' } as Message);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toBe('{"id":1,"method":"turn/start","params":{"text":"a\\u2028b\\u2029c 猫"}}\n{"method":"initialized"}\n');
    expect(text).not.toContain('jsonrpc');
    expect(JSON.parse(text.split('\n')[0] ?? '')).toEqual({ id: 1, method: 'turn/start', params: { text: 'a\u2028b\u2029c 猫' } });
  });

  it('rejects a write after the stream ended, naming the cause', async () => {
    const stream = new PassThrough();
    const writer = new NdjsonMessageWriter(stream);
    writer.end();
    await expect(writer.write({ jsonrpc: '2.0', method: 'initialized' } as Message)).rejects.toThrow(/stdin is closed/);
  });
});
