/**
 * Property: the NDJSON reader of Codex's stdout (core/codex/jsonl.ts `NdjsonMessageReader`, used by
 * codex/client.ts) gives the same messages and the same dropped-line reports (`ReaderIssue`) however
 * the bytes are cut into chunks: anywhere, also inside a multi-byte UTF-8 character and between `\r`
 * and `\n`. Streams mix valid messages (any Unicode, U+2028 inside strings), CRLF lines, blank lines,
 * lines behind terminal escape sequences, text that is not JSON, JSON that is not an object, raw
 * bytes that are not UTF-8, lines over the size cap, and a last line with or without its `\n`. One
 * read is also checked against what each line is (a valid object line gives exactly its message).
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NdjsonMessageReader, type ReaderIssue } from '../../src/main/core/codex/jsonl';
import { fcTimeout, holds } from './support';

const FILE = 'jsonl.property';
/** A small cap, so generated lines cross it. */
const MAX_LINE_BYTES = 300;

/** One generated line: its bytes without the `\n`, and the message it must give (undefined: none). */
interface Line {
  bytes: Buffer;
  message?: unknown;
  kind: 'message' | 'issue' | 'nothing' | 'any';
}

const text = fc.string({
  unit: fc.oneof(fc.constantFrom('\u2028', '\u2029', '猫', '😀', 'é', '\r', '"', '\\', '\u001b'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  maxLength: 30,
});
const message = fc.record({
  id: fc.oneof(fc.nat(), text),
  method: text,
  params: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }),
});

const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 5, arbitrary: message.map((m) => ({ bytes: Buffer.from(JSON.stringify(m)), message: m, kind: 'message' as const })) },
  { weight: 2, arbitrary: message.map((m) => ({ bytes: Buffer.from(`${JSON.stringify(m)}\r`), message: m, kind: 'message' as const })) },
  { weight: 1, arbitrary: message.map((m) => ({ bytes: Buffer.from(`\u001b[?2004h${JSON.stringify(m)}`), message: m, kind: 'message' as const })) },
  { weight: 1, arbitrary: fc.constantFrom('', '\r', '   ', '\t\r').map((s) => ({ bytes: Buffer.from(s), kind: 'nothing' as const })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('Welcome!', '{"a":', '\u001b[0m', 'null', '[1,2]', '42', '"s"').map((s) => ({ bytes: Buffer.from(s), kind: 'issue' as const })),
  },
  { weight: 1, arbitrary: text.map((s) => ({ bytes: Buffer.from(s.replace(/\n/g, '')), kind: 'any' as const })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 12 }).map((a) => ({ bytes: Buffer.from(a.filter((b) => b !== 0x0a)), kind: 'any' as const })) },
  {
    weight: 1,
    arbitrary: fc
      .string({ minLength: MAX_LINE_BYTES, maxLength: MAX_LINE_BYTES + 40 })
      .map((s) => ({ bytes: Buffer.from(`{"big":${JSON.stringify(s)}}`), kind: 'issue' as const })),
  },
);

/** What a reader gave for `chunks` pushed in order, then the end of the stream. */
function read(chunks: readonly Buffer[]): { messages: unknown[]; issues: ReaderIssue[]; closed: boolean } {
  const stream = new PassThrough();
  const messages: unknown[] = [];
  const issues: ReaderIssue[] = [];
  const reader = new NdjsonMessageReader(stream, { maxLineBytes: MAX_LINE_BYTES, onIssue: (i) => issues.push(i) });
  let closed = false;
  reader.onClose(() => (closed = true));
  const listening = reader.listen((m) => messages.push(m));
  for (const c of chunks) reader.push(c);
  stream.emit('end');
  listening.dispose();
  return { messages, issues, closed };
}

/** `bytes` cut at `cuts` (positions, any order, repeats allowed). */
function cut(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of at) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  out.push(bytes.subarray(from));
  return out;
}

const stream = fc.record({ lines: fc.array(line, { maxLength: 12 }), lastNewline: fc.boolean(), cuts: fc.array(fc.nat(), { maxLength: 40 }) });

describe('property: the NDJSON reader', () => {
  it(
    'any chunking gives the messages and issues of one read; one read gives each valid line its message',
    () => {
      holds(
        FILE,
        'ndjson-chunking',
        fc.property(stream, ({ lines, lastNewline, cuts }) => {
          const parts = lines.flatMap((l, i) => (i < lines.length - 1 || lastNewline ? [l.bytes, Buffer.from('\n')] : [l.bytes]));
          const whole = Buffer.concat(parts);
          const once = read([whole]);
          expect(read(cut(whole, cuts))).toEqual(once);
          expect(read([...whole].map((b) => Buffer.from([b]))), 'byte by byte').toEqual(once);
          expect(once.closed).toBe(true);
          // Lines of a known kind: each valid object line gives exactly its message, in order.
          if (lines.every((l) => l.kind !== 'any')) {
            expect(once.messages).toEqual(lines.filter((l) => l.kind === 'message' && l.bytes.length <= MAX_LINE_BYTES).map((l) => l.message));
            const dropped = lines.filter((l) => l.kind === 'issue' || (l.kind === 'message' && l.bytes.length > MAX_LINE_BYTES));
            expect(once.issues).toHaveLength(dropped.length);
            for (const [i, l] of dropped.entries()) {
              const issue = once.issues[i]!;
              if (l.bytes.length > MAX_LINE_BYTES) expect(issue).toEqual({ kind: 'oversize', bytes: l.bytes.length, maxBytes: MAX_LINE_BYTES });
              else expect(issue.kind).not.toBe('oversize');
            }
          }
        }),
      );
    },
    fcTimeout(30),
  );
});
