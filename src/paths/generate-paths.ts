import type { ActorLogic, EventObject } from 'xstate';
import { TestModel, type AdjacencyValue, type StatePath } from 'xstate/graph';
import type { EngineInput } from '../../machines/engine-context.js';
import {
  eventsFor,
  routingView,
  serializeState,
  STARTS,
  testMachine,
  type EngineSnapshot,
  type PathEvent,
  type Start,
} from './engine-model.js';
import { stateSpaceBound } from './state-space-bound.js';

/** A generated path, with the start (the task's input) it begins from. */
export type EnginePath = StatePath<EngineSnapshot, PathEvent> & { start: Start };

const variantOf = (event: EventObject) => (event as Partial<PathEvent>).variant ?? event.type;

/**
 * Readable name of a path: its variants in order, after its start's name unless it is the main one.
 * @example pathName(path) // 'call-allow > tool-ok > text', 'no hooks: text'
 */
export function pathName(path: EnginePath): string {
  return path.start.name ? `${path.start.name}: ${eventsOf(path)}` : eventsOf(path);
}

const eventsOf = (path: Pick<EnginePath, 'steps'>) =>
  path.steps
    .slice(1)
    .map((s) => variantOf(s.event))
    .join(' > ');

/**
 * One path per edge of the chart's state space, from each start: the shortest path to a routing
 * state, then one more event. Shortest paths alone reach every state but skip events that lead to
 * a state already reached (a plan-mode denial and an invalid input both end in
 * `call_model.requesting` at turn 1), and those are exactly the transitions a coverage check is for.
 * `createTestModel` refuses machines with `invoke`, so the model is a plain `TestModel` over the
 * machine's pure transition function.
 */
export function generatePaths(options: GenerateOptions = {}): EnginePath[] {
  return STARTS.flatMap((start) => pathsFrom(start, options));
}

export interface GenerateOptions {
  /** Variants left out (the tests' PATHS_DROP), to show that the coverage check notices. */
  drop?: ReadonlySet<string>;
  /** Another version of the test machine (a test takes a limit away to show the bound holds). */
  machine?: typeof testMachine;
  /** States expanded per start before generation stops (MAX_STATES). */
  maxStates?: number;
}

function pathsFrom(start: Start, options: GenerateOptions): EnginePath[] {
  // The machine's own event type does not list the actors' done/error events it handles.
  const logic = (options.machine ?? testMachine) as unknown as ActorLogic<EngineSnapshot, PathEvent, EngineInput>;
  const bound = stateSpaceBound(options.maxStates);
  const model = new TestModel<EngineSnapshot, PathEvent, EngineInput>(logic, {
    events: (snapshot: EngineSnapshot) => {
      bound.see(routingView(snapshot));
      return eventsFor(snapshot, start, options.drop);
    },
    serializeState: (snapshot: EngineSnapshot) => serializeState(snapshot),
    serializeEvent: (event: EventObject) => variantOf(event),
    input: start.input,
  });
  const adjacency = model.getAdjacencyMap() as Adjacency;
  const heads = shortestPaths(adjacency, start);
  const extended: EnginePath[] = [];
  for (const [key, { transitions }] of Object.entries(adjacency)) {
    const head = heads.get(key);
    if (!head) throw new Error(`no path reaches ${key}`);
    extended.push(head);
    const edges: Array<{ event: PathEvent; state: EngineSnapshot }> = Object.values(transitions);
    for (const { event, state: next } of edges) {
      extended.push({ state: next, steps: [...head.steps, { state: next, event }], weight: head.weight + 1, start });
    }
  }
  return withoutPrefixes(extended);
}

/** The adjacency map by serialized state (xstate/graph brands the key type). */
type Adjacency = Record<string, AdjacencyValue<EngineSnapshot, PathEvent>>;

/**
 * The shortest path to every state of the adjacency map, by breadth-first search from its first
 * entry (the initial state). TestModel's own getShortestPaths walks the state space again and
 * describes every path as text, which costs most of the generation's time.
 */
function shortestPaths(adjacency: Adjacency, start: Start): Map<string, EnginePath> {
  const heads = new Map<string, EnginePath>();
  const init = { type: 'xstate.init', variant: 'xstate.init' };
  const reach = (key: string, path: EnginePath) => {
    heads.set(key, path);
    queue.push([key, path]);
  };
  // for...of visits what is pushed while it runs: the array is the queue.
  const queue: Array<[string, EnginePath]> = [];
  for (const [key, { state }] of Object.entries(adjacency).slice(0, 1))
    reach(key, { state, steps: [{ state, event: init }], weight: 0, start });
  for (const [key, head] of queue) {
    for (const { event, state } of Object.values(adjacency[key]?.transitions ?? {})) {
      const next = serializeState(state);
      if (!heads.has(next)) reach(next, { state, steps: [...head.steps, { state, event }], weight: head.weight + 1, start });
    }
  }
  return heads;
}

/** Drops each path whose events begin another path of its start (replaying the longer one covers it), and repeats. */
function withoutPrefixes(paths: EnginePath[]): EnginePath[] {
  const keys = paths.map(eventsOf);
  const prefixes = new Set<string>();
  for (const key of keys) {
    if (key === '') continue;
    const events = key.split(' > ');
    for (let n = 0; n < events.length; n++) prefixes.add(events.slice(0, n).join(' > '));
  }
  const seen = new Set<string>();
  return paths.filter((_, k) => {
    const key = keys[k] ?? '';
    if (prefixes.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
