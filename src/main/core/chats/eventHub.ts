/**
 * The one event hub: core events enter here and reach every subscriber (hosts, CLI, notification
 * router). A subscriber that throws is isolated from the others.
 */
import type { AppEvent } from '../../../shared/contract';

export class EventHub {
  private readonly listeners = new Set<(e: AppEvent) => void>();

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: (e: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers an event to every subscriber, synchronously, in subscription order. */
  emit(e: AppEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        process.emitWarning(`an event subscriber failed on ${e.event}: ${(err as Error).message}`);
      }
    }
  }
}
