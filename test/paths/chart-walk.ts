import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { chartTransitions } from '../../machines/chart-graph.js';

/**
 * Structural checks of a chart, read from `machine.root` (every state node, every transition:
 * `on`, `always`, invoke done/error, the root's handlers). Each returns what it found wrong, one
 * line each, so a failing test names the state and the transition.
 */

function allStates(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStates(child as AnyStateNode))];
}

const nameOf = (node: AnyStateNode) => (node.path.length === 0 ? `${node.machine.id} (root)` : node.path.join('.'));

/**
 * Transitions that only keep the chart where it is: a wait that should be a state of its own.
 * A targetless transition with no actions does nothing but stay; a targetless eventless one is
 * re-checked on every microstep, so it either loops or waits for a flag (`childRunning`); a guard
 * named after something running is a flag standing in for a state.
 * @example waitingStays(queryEngine) // []
 */
export function waitingStays(machine: AnyStateMachine): string[] {
  return chartTransitions(machine).flatMap(({ edge }) => {
    const found: string[] = [];
    if (edge.internal && edge.actions.length === 0) found.push(`${edge.id}: stays and does nothing`);
    if (edge.internal && edge.event === '') found.push(`${edge.id}: an eventless transition that stays`);
    if (edge.guard && /running/i.test(edge.guard)) found.push(`${edge.id}: guard ${edge.guard} stands in for a state`);
    return found;
  });
}

type ActionImpl = { type?: unknown; assignment?: unknown; collect?: unknown };

/** The implementation an action refers to: by name from the machine's actions, or the inline one. */
function resolve(machine: AnyStateMachine, action: unknown): ActionImpl | undefined {
  const actions = machine.implementations.actions as Record<string, ActionImpl>;
  if (typeof action === 'string') return actions[action];
  if (typeof action === 'function') return action as ActionImpl;
  if (action && typeof action === 'object' && 'type' in action) {
    const { type } = action as { type: unknown };
    return typeof type === 'string' ? (actions[type] ?? (action as ActionImpl)) : (action as ActionImpl);
  }
  return undefined;
}

/** Sources of what an assign or enqueueActions runs (an object of assigners gives one per property). */
function sourcesOf(impl: ActionImpl): string[] {
  const body = impl.assignment ?? impl.collect;
  if (typeof body === 'function') return [String(body)];
  if (body && typeof body === 'object') return Object.values(body).map(String);
  return [];
}

/** Whether an action's source (an enqueueActions, an assign) matches. */
function actionsSay(machine: AnyStateMachine, actions: readonly unknown[], pattern: RegExp): boolean {
  return actions.some((action) => {
    const impl = resolve(machine, action);
    return impl !== undefined && sourcesOf(impl).some((source) => pattern.test(source));
  });
}

/**
 * A state that owns its children: it spawns them on entry (a subagent named by its agent path,
 * `systemId`, which `invoke` cannot compute; a batch's calls, one each) and stops them on exit, so
 * leaving it stops them as leaving an invoking state would. Only such a state may spawn, on entry
 * or on its own transitions that stay (the batch starts a waiting call when another is done).
 */
export function ownsChildren(machine: AnyStateMachine, node: AnyStateNode): boolean {
  return actionsSay(machine, node.entry, /\.spawnChild\(/) && actionsSay(machine, node.exit, /\.stopChild\(/);
}

/**
 * Actions that spawn an actor outside a state that owns it: `spawnChild`, or an assign /
 * enqueueActions that uses the `spawn` it is handed, anywhere but in the entry (or a transition
 * that stays) of a state that stops what it spawned on exit. What an assigner does is only
 * visible in its source, so that is what is read (the chart names every action; `.provide()` keeps names).
 * @example spawnsOutsideInvoke(queryEngine) // []
 */
export function spawnsOutsideInvoke(machine: AnyStateMachine): string[] {
  const named = (where: string, actions: readonly unknown[]) =>
    actions.flatMap((action) => {
      const impl = resolve(machine, action);
      if (!impl) return [];
      if (impl.type === 'xstate.spawnChild') return [`${where}: spawnChild`];
      return sourcesOf(impl).some((source) => /\bspawn(Child)?\b/.test(source)) ? [`${where}: spawns inside ${String(impl.type)}`] : [];
    });
  const nodes = allStates(machine.root);
  const owners = new Set(nodes.filter((node) => ownsChildren(machine, node)).map(nameOf));
  const inStates = nodes.flatMap((node) => [
    ...(owners.has(nameOf(node)) ? [] : named(`${nameOf(node)} entry`, node.entry)),
    ...named(`${nameOf(node)} exit`, node.exit),
  ]);
  const onTransitions = chartTransitions(machine).flatMap(({ edge, transition }) =>
    edge.internal && owners.has(edge.from) ? [] : named(edge.id, transition.actions),
  );
  return [...inStates, ...onTransitions];
}

/**
 * Every state that can rest (a leaf, not final, no unguarded `always` to leave by) waits for
 * something, so it invokes exactly one actor (or owns the children it spawns); every other state invokes none, since an actor
 * invoked by a state passed through would be started and stopped at once. The root may invoke
 * what lives for the whole run (the deadline).
 * @example invocationsOutOfPlace(queryEngine) // []
 */
export function invocationsOutOfPlace(machine: AnyStateMachine): string[] {
  return allStates(machine.root)
    .slice(1)
    .flatMap((node) => {
      const leaf = Object.keys(node.states).length === 0;
      const passesThrough = node.always?.some((t) => !t.guard) ?? false;
      const waits = leaf && node.type !== 'final' && !passesThrough;
      const ids = node.invoke.map((i) => i.id);
      // A state that owns the children it spawns waits for them instead (a subagent, a batch's calls).
      if (waits && ids.length === 0 && ownsChildren(machine, node)) return [];
      if (waits && ids.length !== 1) return [`${nameOf(node)} waits but invokes ${ids.length} actors [${ids}]`];
      if (!waits && ids.length > 0) return [`${nameOf(node)} does not wait but invokes [${ids}]`];
      return [];
    });
}

/** Transition ids that name more than one transition (ids are derived from source, event, guard and target). */
export function duplicateTransitionIds(machine: AnyStateMachine): string[] {
  const ids = chartTransitions(machine).map((t) => t.edge.id);
  return [...new Set(ids.filter((id, k) => ids.indexOf(id) !== k))];
}
