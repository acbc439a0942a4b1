/**
 * The latest `turn/diff/updated` of a chat's recent turns, in memory (codex 0.169.0 sends the whole
 * aggregated diff again after every step of a turn; docs/architecture.md "A turn's changes, measured").
 * A chat holds one (chat.ts `turnDiffs`); chatTurns.ts reads and feeds it.
 */

/** How many turns' latest Codex diffs a chat holds in memory (the running one and the last finished). */
const KEEP_LIVE = 4;

/** The latest Codex diff of a chat's recent turns, by Codex's turn id (oldest first). */
export class LiveTurnDiffs {
  private readonly latest = new Map<string, { threadId: string | null; text: string }>();

  /** Keeps `text` as the latest diff of `turnId` (Codex sends the whole diff every time). */
  updated(turnId: string, threadId: string | null, text: string): void {
    this.latest.delete(turnId);
    this.latest.set(turnId, { threadId, text });
    for (const old of this.latest.keys()) {
      if (this.latest.size <= KEEP_LIVE) break;
      this.latest.delete(old);
    }
  }

  /** The latest diff of `turnId`, if it is held. */
  get(turnId: string): { threadId: string | null; text: string } | undefined {
    return this.latest.get(turnId);
  }
}
