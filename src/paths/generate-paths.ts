import type { ActorLogic, EventObject } from 'xstate';
import { TestModel, type StatePath } from 'xstate/graph';
import type { EngineInput } from '../../machines/engine-context.js';
import { eventsFor, INPUT, serializeState, testMachine, type EngineSnapshot, type PathEvent } from './engine-model.js';

export type EnginePath = StatePath<EngineSnapshot, PathEvent>;

const variantOf = (event: EventObject) => (event as Partial<PathEvent>).variant ?? event.type;

/**
 * One path per edge of the chart's state space: the shortest path to a routing state, then one
 * more event. Shortest paths alone reach every state but skip events that lead to a state already
 * reached (a plan-mode denial and an invalid input both end in `call_model` at turn 1), and those
 * are exactly the transitions a coverage check is for. `createTestModel` refuses machines with
 * `invoke`, so the model is a plain `TestModel` over the machine's pure transition function.
 */
export function generatePaths(options: { drop?: ReadonlySet<string> } = {}): EnginePath[] {
  // The machine's own event type does not list the actors' done/error events it handles.
  const logic = testMachine as unknown as ActorLogic<EngineSnapshot, PathEvent, EngineInput>;
  const model = new TestModel<EngineSnapshot, PathEvent, EngineInput>(logic, {
    events: (snapshot: EngineSnapshot) => eventsFor(snapshot, options.drop),
    serializeState: (snapshot: EngineSnapshot) => serializeState(snapshot),
    serializeEvent: (event: EventObject) => variantOf(event),
    input: INPUT,
  });
  const shortest = new Map(model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => [serializeState(p.state), p]));
  const extended: EnginePath[] = [];
  for (const { state, transitions } of Object.values(model.getAdjacencyMap())) {
    const head = shortest.get(serializeState(state));
    if (!head) throw new Error(`no path reaches ${serializeState(state)}`);
    extended.push(head);
    const edges: Array<{ event: PathEvent; state: EngineSnapshot }> = Object.values(transitions);
    for (const { event, state: next } of edges) {
      extended.push({ state: next, steps: [...head.steps, { state: next, event }], weight: head.weight + 1 });
    }
  }
  return withoutPrefixes(extended);
}

/** Drops each path whose events begin another path: replaying the longer one covers it. */
function withoutPrefixes(paths: EnginePath[]): EnginePath[] {
  const keys = paths.map((p) =>
    p.steps
      .slice(1)
      .map((s) => variantOf(s.event))
      .join(' > '),
  );
  const sorted = paths.map((p, i) => ({ p, key: keys[i]! })).sort((a, b) => b.key.length - a.key.length || a.key.localeCompare(b.key));
  const kept: Array<{ p: EnginePath; key: string }> = [];
  for (const candidate of sorted) {
    if (kept.some((k) => k.key === candidate.key || k.key.startsWith(`${candidate.key} > `))) continue;
    kept.push(candidate);
  }
  return kept.map((k) => k.p);
}
