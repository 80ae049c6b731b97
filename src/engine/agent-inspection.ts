import type { ActorRefLike, InspectionEvent } from 'xstate';
import { observeMicrosteps, type Microstep } from './step-adapter.js';

/**
 * One `inspect` callback for a task's actor system: the main agent's chart and every subagent's
 * chart (its children, by `systemId`) report their microsteps to the agent each belongs to, so
 * every agent's states reach the evidence log under its own path.
 * @example const agents = new AgentInspection(onMainMicrostep); createActor(machine, { inspect: agents.inspect });
 */
export class AgentInspection {
  private readonly children = new Map<ActorRefLike, (event: InspectionEvent) => void>();
  private readonly root: (event: InspectionEvent) => void;

  constructor(onMicrostep: (microstep: Microstep) => void) {
    this.root = observeMicrosteps(onMicrostep);
  }

  /** A child chart's microsteps go to `onMicrostep` from now on (before it starts: its first state is one). */
  watch(child: ActorRefLike, onMicrostep: (microstep: Microstep) => void): void {
    this.children.set(
      child,
      observeMicrosteps(onMicrostep, (event) => event.actorRef === child),
    );
  }

  /** The child is gone: nothing more to report. */
  forget(child: ActorRefLike): void {
    this.children.delete(child);
  }

  readonly inspect = (event: InspectionEvent): void => {
    if (event.actorRef.sessionId === event.rootId) this.root(event);
    else this.children.get(event.actorRef)?.(event);
  };
}
