/**
 * NDJSON framing for vscode-jsonrpc over a `codex app-server` child's stdio.
 *
 * Wire facts (codex-cli 0.169.0 `codex app-server` stdio transport, verified): one JSON object per
 * line, no `Content-Length` header, and no `"jsonrpc"` member in what Codex writes (it is not needed in
 * what it reads either). Two rules shape the reader: huge or non-JSON lines must not kill it, and
 * multibyte characters split across chunks survive (U+2028 is not a line break).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter } from 'vscode-jsonrpc/node';
import type { DataCallback, Disposable, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';

/** Default cap on one line: 64 MiB of bytes (a 5 MB `item/completed` line is normal). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Longest excerpt of a skipped line kept in a `ReaderIssue` (code points). */
const PREVIEW_CODE_POINTS = 200;

/**
 * Something the reader dropped instead of failing the connection:
 * - `oversize`: a line longer than the cap (`bytes` = its full length in bytes, without the `\n`);
 * - `not-json`: a line that does not parse as JSON (`preview` = its first 200 code points, `error` = the
 *   parser's message), e.g. a `Welcome!` banner or a shell escape sequence on stdout;
 * - `not-object`: valid JSON that is not an object (an array, a number, `null`, …).
 */
export type ReaderIssue =
  { kind: 'oversize'; bytes: number; maxBytes: number } | { kind: 'not-json'; preview: string; error: string } | { kind: 'not-object'; preview: string };

/** Options of `NdjsonMessageReader`. */
export interface NdjsonReaderOptions {
  /** Largest accepted line in bytes (default `DEFAULT_MAX_LINE_BYTES`). */
  maxLineBytes?: number;
  /** Told about every dropped line; never throws into the reader (exceptions are swallowed). */
  onIssue?: (issue: ReaderIssue) => void;
}

/** Leading ANSI CSI sequences, e.g. bracketed-paste `ESC[?2004h` a shell may put in front of output. */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const LEADING_CSI = /^(?:\u001b\[[0-9;?]*[ -/]*[@-~])+/;

function preview(text: string): string {
  const cps = Array.from(text.slice(0, PREVIEW_CODE_POINTS * 2));
  return cps.length > PREVIEW_CODE_POINTS ? `${cps.slice(0, PREVIEW_CODE_POINTS).join('')}…` : cps.join('');
}

/**
 * Reads one JSON-RPC message per `\n`-terminated line from a byte stream.
 *
 * Framing is done on raw bytes (0x0A never occurs inside a multibyte UTF-8 sequence) and the text of each
 * line is decoded with one stateful `StringDecoder`, so a character split across chunks survives. Only
 * `\n` ends a line: U+2028/U+2029 inside JSON strings are content (no `readline`). A trailing `\r` is
 * stripped, blank lines are ignored, leading ANSI CSI escape sequences are removed. Lines over the cap,
 * non-JSON lines and non-object JSON are dropped and reported through `onIssue`; the connection stays
 * up. Messages are handed to vscode-jsonrpc as parsed: the library routes on `id`/`method`/`result`/
 * `error` and does not need the `"jsonrpc"` member Codex omits. A last line without `\n` at end of
 * stream is still processed. Stream errors are raised through `onError`, end of stream through `onClose`.
 */
export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly maxLineBytes: number;
  private readonly onIssue: (issue: ReaderIssue) => void;
  private readonly decoder = new StringDecoder('utf8');
  private parts: string[] = [];
  private lineBytes = 0;
  private dropping = false;
  private callback: DataCallback | null = null;

  constructor(
    private readonly readable: Readable,
    options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const onIssue = options.onIssue;
    this.onIssue = (issue) => {
      try {
        onIssue?.(issue);
      } catch {
        // A faulty logger must not take the reader down.
      }
    };
  }

  /** Starts reading; call at most once. The returned Disposable detaches from the stream. */
  listen(callback: DataCallback): Disposable {
    if (this.callback) throw new Error('NdjsonMessageReader.listen was called twice; a reader serves one connection');
    this.callback = callback;
    const onData = (chunk: Buffer | string): void => this.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const onEnd = (): void => {
      if (this.lineBytes > 0 || this.parts.length > 0 || this.dropping) this.finishLine();
      this.fireClose();
    };
    const onError = (error: Error): void => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('error', onError);
        this.callback = null;
      },
    };
  }

  /** Feeds raw bytes (exposed for tests and for non-stream sources). */
  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.appendSegment(chunk.subarray(start, end));
      if (nl === -1) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  private appendSegment(segment: Buffer): void {
    this.lineBytes += segment.length;
    if (this.dropping) return;
    if (this.lineBytes > this.maxLineBytes) {
      this.dropping = true;
      this.parts = [];
      this.decoder.end();
      return;
    }
    const text = this.decoder.write(segment);
    if (text.length > 0) this.parts.push(text);
  }

  private finishLine(): void {
    const bytes = this.lineBytes;
    const dropped = this.dropping;
    const tail = dropped ? '' : this.decoder.end();
    const text = dropped ? '' : this.parts.join('') + tail;
    this.parts = [];
    this.lineBytes = 0;
    this.dropping = false;
    if (dropped) {
      this.onIssue({ kind: 'oversize', bytes, maxBytes: this.maxLineBytes });
      return;
    }
    this.handleLine(text);
  }

  private handleLine(raw: string): void {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    line = line.replace(LEADING_CSI, '');
    if (line.trim().length === 0) {
      if (raw.trim().length > 0) this.onIssue({ kind: 'not-json', preview: preview(raw), error: 'only terminal escape sequences' });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.onIssue({ kind: 'not-json', preview: preview(line), error: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.onIssue({ kind: 'not-object', preview: preview(line) });
      return;
    }
    this.callback?.(value as Message);
  }
}

/**
 * Serialises one JSON-RPC message as a line of JSON: drops the `"jsonrpc"` member (Codex neither sends nor
 * needs it, codex 0.169.0) and escapes U+2028/U+2029 as `\u2028`/`\u2029` so no consumer that
 * treats them as line breaks can cut the line. Returns the text including the final `\n`.
 */
export function encodeNdjson(msg: Message): string {
  const { jsonrpc: _jsonrpc, ...rest } = msg as Message & Record<string, unknown>;
  return `${JSON.stringify(rest)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}\n`;
}

/**
 * Writes one JSON object per line (see `encodeNdjson`) to a byte stream, in call order. `write` resolves
 * once the stream accepted the bytes and rejects (and raises `onError`) when the stream fails, e.g. EPIPE
 * after the child exited. `end()` ends the stream (closes the child's stdin).
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly writable: Writable) {
    super();
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    const line = encodeNdjson(msg);
    return new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        this.errorCount += 1;
        this.fireError(error, msg, this.errorCount);
        reject(error);
      };
      if (this.writable.destroyed || this.writable.writableEnded) {
        fail(new Error('cannot write to codex app-server: its stdin is closed (the process stopped or is stopping)'));
        return;
      }
      this.writable.write(line, 'utf8', (error) => {
        if (error) fail(error);
        else resolve();
      });
    });
  }

  end(): void {
    if (!this.writable.writableEnded) this.writable.end();
  }
}
