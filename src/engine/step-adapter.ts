import type { AnyTransitionDefinition, InspectionEvent } from 'xstate';
import type { EngineContext } from '../../machines/engine-context.js';
import type { EngineStatePath } from '../../machines/query-engine.js';
import { transitionId } from '../../machines/chart-graph.js';
import type { Via } from '../sessions/step.js';

/**
 * The one place that reads XState's microstep internals (`_transitions`). Everything else (the
 * trace, query()'s events, the inspector, the generated-path replay) gets plain microsteps from here,
 * so an XState upgrade that changes them breaks one file.
 */

/** One transition taken in a microstep, by its chart edge id. */
export interface TakenTransition {
  id: string;
  /** The state the transition leaves; `''` for a handler on the root. */
  source: string;
  /** null for a targetless transition (it runs actions in place). */
  target: string | null;
  /** The transition's own event type; `''` for an eventless one. */
  eventType: string;
}

export interface Microstep {
  /** The full path of the state after the microstep (`ask_permission.asking_user`). */
  state: EngineStatePath;
  context: EngineContext;
  /** The event being processed (for eventless transitions, the one that started the macrostep). */
  eventType: string;
  /** Every transition of the microstep, targetless ones too; computed on request (coverage wants it, the trace does not). */
  transitions(): TakenTransition[];
  /** How the state was entered, when a transition entered one (targetless microsteps enter none). */
  entered: Via | null;
}

const key = (node: { path: readonly string[] }) => node.path.join('.');

/** The path of the one active leaf of a snapshot's value (the chart has no parallel states). */
export function statePath(value: unknown): EngineStatePath {
  const parts: string[] = [];
  let node = value;
  while (node !== null && typeof node === 'object') {
    const [first] = Object.keys(node);
    if (first === undefined) break;
    parts.push(first);
    node = (node as Record<string, unknown>)[first];
  }
  if (typeof node === 'string') parts.push(node);
  return parts.join('.') as EngineStatePath;
}
const none = (): TakenTransition[] => [];
const takenBy = (all: readonly AnyTransitionDefinition[]) => () => all.map(taken);
const INIT: Via = { event: 'xstate.init' };

function taken(transition: AnyTransitionDefinition): TakenTransition {
  const target = transition.target?.[0];
  return {
    id: transitionId(transition),
    source: key(transition.source),
    target: target ? key(target) : null,
    eventType: transition.eventType,
  };
}

/** The root actor of the system (the main agent's chart). */
const isRoot = (event: InspectionEvent) => event.actorRef.sessionId === event.rootId;

/**
 * An `inspect` callback that reports each microstep of one actor of the system: the root by
 * default, or the one `owns` picks (a subagent's chart). The first state is entered by the initial
 * transition, which XState reports as no microstep: it is reported first, `via` `xstate.init`.
 * @example createActor(machine, { inspect: observeMicrosteps((m) => m.entered && console.log(m.state)) })
 */
export function observeMicrosteps(
  onMicrostep: (microstep: Microstep) => void,
  owns: (event: InspectionEvent) => boolean = isRoot,
): (event: InspectionEvent) => void {
  let initialSeen = false;
  return (event) => {
    if (!owns(event)) return;
    if (event.type === '@xstate.snapshot' && !initialSeen) {
      // An initial state with no eventless transition: the first snapshot is that state.
      const snapshot = event.snapshot as unknown as { value: unknown; context: EngineContext };
      initialSeen = true;
      onMicrostep({
        state: statePath(snapshot.value),
        context: snapshot.context,
        eventType: 'xstate.init',
        transitions: none,
        entered: INIT,
      });
      return;
    }
    if (event.type !== '@xstate.microstep') return;
    const snapshot = event.snapshot as unknown as { value: unknown; context: EngineContext };
    const all = event._transitions;
    if (!initialSeen) {
      initialSeen = true;
      const first = all[0];
      if (first)
        onMicrostep({
          state: key(first.source) as EngineStatePath,
          context: snapshot.context,
          eventType: 'xstate.init',
          transitions: none,
          entered: INIT,
        });
    }
    let moved: AnyTransitionDefinition | undefined;
    for (let k = all.length - 1; k >= 0 && !moved; k--) if (all[k]!.target?.length) moved = all[k];
    const entered: Via | null = moved
      ? { event: moved.eventType === '' ? 'always' : moved.eventType, transition: transitionId(moved) }
      : null;
    onMicrostep({
      state: statePath(snapshot.value),
      context: snapshot.context,
      eventType: event.event.type,
      transitions: takenBy(all),
      entered,
    });
  };
}
