import type { Clock } from './clock.js';

/** The state in which the task waits for the person; its time never counts toward the deadline. */
export const WAITING_FOR_PERSON = 'ask_permission.asking_user';

/**
 * The deadline's clock: the wall clock minus the time spent waiting for the person. A dialog left
 * open over lunch must not turn `--timeout 10s` into a stop; the model and the tools still count.
 * query() pauses it when the chart enters `ask_permission.asking_user` and resumes it on leaving.
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

  /** Follows the chart: paused exactly while the state entered is the waiting one. */
  follow(statePath: string): void {
    if (statePath === WAITING_FOR_PERSON) this.pause();
    else this.resume();
  }
}
