/**
 * A bounded tail of a child's stderr, decoded with a stateful UTF-8 decoder so a character split across
 * pipe chunks is not turned into U+FFFD. Codex writes tracing logs and, on a fatal
 * startup error, `Error: …` to stderr (codex 0.169.0); only the tail is kept for error messages.
 */
import { StringDecoder } from 'node:string_decoder';

/** ANSI CSI sequences (colours of Codex's tracing output), removed from `tail()`. */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const ANSI_CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Keeps roughly the last `maxChars` UTF-16 code units of text (≈ bytes for ASCII logs). */
export class StderrRing {
  private readonly decoder = new StringDecoder('utf8');
  private chunks: string[] = [];
  private size = 0;
  private readonly listeners: ((text: string) => void)[] = [];

  /** @param maxChars how much text to keep (code units); older text is dropped first. */
  constructor(private readonly maxChars: number) {}

  /** Adds raw bytes. */
  push(chunk: Buffer): void {
    this.add(this.decoder.write(chunk));
  }

  /** Flushes an incomplete final character (as U+FFFD), at end of stream. */
  end(): void {
    this.add(this.decoder.end());
  }

  /** Calls `listener` with each piece of decoded text. */
  onText(listener: (text: string) => void): void {
    this.listeners.push(listener);
  }

  /** Everything kept, oldest first; never starts with a lone low surrogate. */
  text(): string {
    return StderrRing.trimStart(this.chunks.join(''), this.maxChars);
  }

  /**
   * The last `lines` non-empty lines (split on `\n`, trailing `\r` and ANSI colour codes removed), joined
   * with `\n`. The first kept line may be cut at its start when the ring dropped older text.
   */
  tail(lines: number): string {
    const all = this.text()
      .replace(ANSI_CSI, '')
      .split('\n')
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
      .filter((l) => l.trim().length > 0);
    return all.slice(-lines).join('\n');
  }

  private add(text: string): void {
    if (text.length === 0) return;
    for (const l of this.listeners) {
      try {
        l(text);
      } catch {
        // A listener's failure must not stop the capture.
      }
    }
    this.chunks.push(text);
    this.size += text.length;
    // Compact only past twice the budget, so the cost per chunk stays constant on average.
    if (this.size <= this.maxChars * 2) return;
    const kept = StderrRing.trimStart(this.chunks.join(''), this.maxChars);
    this.chunks = [kept];
    this.size = kept.length;
  }

  /** The last `max` code units of `text`, without a leading lone low surrogate. */
  private static trimStart(text: string, max: number): string {
    if (text.length <= max) return text;
    const out = text.slice(text.length - max);
    const first = out.charCodeAt(0);
    return first >= 0xdc00 && first <= 0xdfff ? out.slice(1) : out;
  }
}
