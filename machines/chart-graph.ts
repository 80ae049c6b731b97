import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * The statechart as plain data, read from `machine.root` rather than `machine.toJSON()`, which
 * leaves out `always` transitions and guard names. The diagrams, the generated-path coverage and
 * the inspector all read this one model, so they cannot disagree about what the chart contains.
 * Imports only xstate types: safe for the inspector page and the tests alike.
 */

export type EdgeKind = 'on' | 'always' | 'done' | 'error' | 'root';

export interface ChartNode {
  /** The state's path joined by '.' (`call_model.requesting`); what the trace and the inspector call it. */
  id: string;
  /** The state it is nested in (`call_model`); absent for a top-level state. */
  parent?: string;
  /** Its child states, for a compound state (the leaves are where the trace's lines land). */
  children?: string[];
  initial: boolean;
  final: boolean;
  /** Sources of the actors invoked while the state is active. */
  invoke?: string[];
  /** Names of the entry actions. */
  entry: string[];
}

export interface ChartEdge {
  /**
   * `<from>:<event or "always">[<guard>]><to>` (no `[...]` without a guard, no `>to` when targetless):
   * derived from what the transition is, not where it sits in a list, so adding a branch renumbers nothing.
   */
  id: string;
  /** A state id, or the machine id for handlers on the root (active in every state). */
  from: string;
  /** The target state; for a targetless transition, `from` (and `internal` is set). */
  to: string;
  /** The event type; `''` for an eventless (`always`) transition. */
  event: string;
  guard?: string;
  actions: string[];
  kind: EdgeKind;
  /** Targetless: runs its actions without leaving the state. */
  internal?: true;
  /** Leaves and re-enters its own state (entry actions and invocations run again). */
  reenter?: true;
}

export interface ChartGraph {
  /** The machine id; root-level edges come `from` it. */
  id: string;
  /** A digest of every state and transition: traces record it (`task_start.chart`) to tell which chart wrote them. */
  fingerprint: string;
  /** Actors invoked by the root, alive for the whole run (the deadline). */
  invoke?: string[];
  nodes: ChartNode[];
  edges: ChartEdge[];
}

/** A transition of the chart with its place in it; `transition` is the machine's own object. */
export interface ChartTransition {
  edge: ChartEdge;
  transition: AnyTransitionDefinition;
}

function stateId(node: AnyStateNode): string {
  return node.path.length === 0 ? node.machine.id : node.path.join('.');
}

function paramText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const parts = Object.values(value as Record<string, unknown>).map((v) =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined,
  );
  return parts.every((p) => p !== undefined) && parts.length > 0 ? parts.join(', ') : undefined;
}

/** `stop(max_turns)` for an action with constant params, its type otherwise. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') return action.name || 'inline';
  if (action && typeof action === 'object' && 'type' in action) {
    const { type, params } = action as { type: unknown; params?: unknown };
    const shown = paramText(params);
    return shown ? `${String(type)}(${shown})` : String(type);
  }
  return 'inline';
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline';
  if (guard && typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

function edgeKind(node: AnyStateNode, eventType: string): EdgeKind {
  if (node.path.length === 0) return 'root';
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.done.actor.')) return 'done';
  if (eventType.startsWith('xstate.error.actor.')) return 'error';
  return 'on';
}

function allStates(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStates(child as AnyStateNode))];
}

/**
 * Every transition of the chart, root handlers first, then each state's event transitions in
 * declaration order (invoke onDone/onError are `xstate.done.actor.<id>` / `xstate.error.actor.<id>`),
 * then its `always` list.
 * @example chartTransitions(queryEngine).map((t) => t.edge.id) // ['queryEngine:ABORT:0', ...]
 */
export function chartTransitions(machine: AnyStateMachine): ChartTransition[] {
  return allStates(machine.root).flatMap((node) => {
    const from = stateId(node);
    const lists: Array<[string, readonly AnyTransitionDefinition[]]> = [...node.transitions.entries()];
    if (node.always) lists.push(['', node.always]);
    return lists.flatMap(([eventType, candidates]) =>
      candidates.map((transition): ChartTransition => {
        const target = transition.target?.[0];
        const guard = guardName(transition.guard);
        const edge: ChartEdge = {
          id: transitionId(transition),
          from,
          to: target ? stateId(target) : from,
          event: eventType,
          ...(guard ? { guard } : {}),
          actions: transition.actions.map(actionName),
          kind: edgeKind(node, eventType),
          ...(target ? {} : { internal: true as const }),
          ...(transition.reenter ? { reenter: true as const } : {}),
        };
        return { edge, transition };
      }),
    );
  });
}

const transitionIds = new WeakMap<AnyTransitionDefinition, string>();

/**
 * The id of a transition, from what it is: source, event, guard and target. Two transitions of one
 * state that agree on all four would share it; the chart test forbids that (give one a guard).
 * @example transitionId(t) // 'ask_permission.deciding:always[permissionAllowed]>execute_tool'
 */
export function transitionId(transition: AnyTransitionDefinition): string {
  // Asked for on every microstep of every run (trace lines): a transition's id never changes.
  let id = transitionIds.get(transition);
  if (id === undefined) {
    const guard = guardName(transition.guard);
    const target = transition.target?.[0];
    id = `${stateId(transition.source)}:${transition.eventType || 'always'}${guard ? `[${guard}]` : ''}${target ? `>${stateId(target)}` : ''}`;
    transitionIds.set(transition, id);
  }
  return id;
}

/**
 * A short digest (cyrb53, hex) of the chart's states and transitions with their actions: equal for
 * the same chart, different when a state, a branch, a guard or an action changes.
 */
export function fingerprintOf(graph: Omit<ChartGraph, 'fingerprint'>): string {
  const text = JSON.stringify([graph.id, graph.nodes, graph.edges.map((e) => [e.id, e.actions, e.reenter === true])]);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** A short label for an edge's trigger: `ABORT`, `done(callModel)`, `error(executeTool)`, `always`. */
export function eventLabel(edge: Pick<ChartEdge, 'event'>): string {
  if (edge.event === '') return 'always';
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(edge.event);
  return actor ? `${actor[1]}(${actor[2]})` : edge.event;
}

/**
 * The chart as a graph model: its states (with entry actions and invoked actors) and its transitions.
 * @example const graph = chartGraph(queryEngine); graph.nodes.map((n) => n.id) // ['build_context', ...]
 */
export function chartGraph(machine: AnyStateMachine): ChartGraph {
  const nodes = allStates(machine.root)
    .slice(1)
    .map((node): ChartNode => {
      // The invocation's id says what is waited for (`preToolUseHooks`), where the source may be shared (`runHooks`).
      const invoke = node.invoke.map((i) => i.id);
      const children = Object.values(node.states).map((child) => stateId(child as AnyStateNode));
      const parent = node.parent && node.parent.path.length > 0 ? stateId(node.parent) : undefined;
      return {
        id: stateId(node),
        ...(parent ? { parent } : {}),
        ...(children.length > 0 ? { children } : {}),
        initial: (node.parent?.initial?.target ?? []).some((t: AnyStateNode) => t === node),
        final: node.type === 'final',
        ...(invoke.length > 0 ? { invoke } : {}),
        entry: node.entry.map(actionName),
      };
    });
  const rootInvoke = machine.root.invoke.map((i) => (typeof i.src === 'string' ? i.src : i.id));
  const graph = {
    id: machine.id,
    ...(rootInvoke.length > 0 ? { invoke: rootInvoke } : {}),
    nodes,
    edges: chartTransitions(machine).map((t) => t.edge),
  };
  return { ...graph, fingerprint: fingerprintOf(graph) };
}
