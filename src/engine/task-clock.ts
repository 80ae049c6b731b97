import type { Clock } from './clock.js';

/**
 * The deadline's clock: the wall clock minus the time spent waiting for the person. A dialog left
 * open over lunch must not turn `--timeout 10s` into a stop; the model and the tools still count.
 * The deadline actor pauses it when the chart tells it the person's wait starts (`DEADLINE.PAUSE`, sent on
 * entering the `person` state) and resumes it when the wait ends.
 * @example const clock = new TaskClock(systemClock); clock.pause(); clock.now(); // frozen until resume()
 */
export class TaskClock implements Clock {
  private pausedAt: number | null = null;
  private pausedMs = 0;
  private readonly resumeListeners = new Set<() => void>();

  constructor(private readonly wall: Clock) {}

  now(): number {
    return (this.pausedAt ?? this.wall.now()) - this.pausedMs;
  }

  get paused(): boolean {
    return this.pausedAt !== null;
  }

  pause(): void {
    if (this.pausedAt === null) this.pausedAt = this.wall.now();
  }

  resume(): void {
    if (this.pausedAt === null) return;
    this.pausedMs += this.wall.now() - this.pausedAt;
    this.pausedAt = null;
    for (const listener of this.resumeListeners) listener();
  }

  /** Called each time the clock runs again (the deadline re-arms its timer then). */
  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => this.resumeListeners.delete(listener);
  }
}
