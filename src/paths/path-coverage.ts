import { createActor, fromCallback, fromPromise, type AnyStateMachine } from 'xstate';
import { STOP_REASONS, type StopReason } from '../../machines/types.js';
import { chartGraph, chartTransitions, eventLabel, type ChartEdge } from '../../machines/chart-graph.js';
import { observeMicrosteps, statePath } from '../engine/step-adapter.js';
import { ALL_VARIANTS, testMachine } from './engine-model.js';
import { pathName, type EnginePath } from './generate-paths.js';

/**
 * What each generated path covers, found by sending its events to an actor of the chart whose
 * invoked actors never settle on their own (the path's done/error events settle them) and reading
 * the transitions from `@xstate.microstep`. No model, tool or oracle: this is what `xagent paths`
 * shows; the test suite replays the same paths with its oracle and invariants on top.
 */

export interface PathReport {
  /** The path's events by variant: `call-allow > tool-ok > text`. */
  name: string;
  events: string[];
  /** Transition ids in the order taken (transient states' `always` included). */
  transitions: string[];
  /** For each transition taken, how many of the path's events had been sent (0: on start). */
  takenAt: number[];
  /** Full paths of the states entered, in order (`build_context.starting`, `call_model.requesting`). */
  states: string[];
  end: string;
  stopReason: StopReason | null;
}

export interface CoverageRow {
  what: string;
  covered: number;
  total: number;
}

export interface PathsReport {
  paths: PathReport[];
  coverage: CoverageRow[];
  /** Every transition of the chart and how many paths take it. */
  transitions: Array<{ id: string; label: string; paths: number }>;
  guards: Array<{ guard: string; true: number; false: number }>;
  /** What no path covers, by name: what `xagent paths --check` prints. */
  uncovered: {
    states: string[];
    transitions: string[];
    guardOutcomes: string[];
    stopReasons: string[];
    variants: string[];
  };
}

const pending = () => new Promise<never>(() => undefined);
const variantOf = (event: { type: string; variant?: string }) => event.variant ?? event.type;

/** Every state node of the chart and the nodes it is nested in: entering a leaf enters them all. */
export const CHART_STATES = chartGraph(testMachine).nodes.map((n) => n.id);
export const withAncestors = (state: string) => state.split('.').map((_, k, parts) => parts.slice(0, k + 1).join('.'));

type GuardFn = (args: unknown, params: unknown) => boolean;
export type GuardCounts = Map<string, { true: number; false: number }>;

/**
 * The machine with each guard wrapped to count its outcomes into `counts`: the coverage of
 * `xagent paths` and of the generated path tests is measured on the real guards.
 * @example const counts: GuardCounts = new Map(); const counted = withGuardCounts(queryEngine, counts);
 */
export function withGuardCounts<M extends AnyStateMachine>(machine: M, counts: GuardCounts): M {
  const original = machine.implementations.guards as Record<string, GuardFn>;
  const guards = Object.fromEntries(
    Object.entries(original).map(([name, guard]) => [
      name,
      (args: unknown, params: unknown) => {
        const outcome = guard(args, params);
        const c = counts.get(name) ?? { true: 0, false: 0 };
        c[outcome ? 'true' : 'false']++;
        counts.set(name, c);
        return outcome;
      },
    ]),
  );
  return machine.provide({ guards }) as M;
}

/** The test machine with quiet actors (every one the chart names) and guards that count their outcomes into `guards`. */
function observedMachine(guards: GuardCounts): AnyStateMachine {
  const actors = Object.fromEntries(
    Object.keys(testMachine.implementations.actors).map((name) => [
      name,
      name === 'deadline' ? fromCallback(() => undefined) : fromPromise(pending),
    ]),
  );
  return withGuardCounts(testMachine, guards).provide({ actors } as never) as AnyStateMachine;
}

/** Runs one path's events through the chart and reports what it took. */
export function tracePath(path: EnginePath, machine: AnyStateMachine = observedMachine(new Map())): PathReport {
  const transitions: string[] = [];
  const takenAt: number[] = [];
  let sent = 0;
  const states: string[] = [];
  // Microsteps come through the one step adapter; it reports the initial state first. Each one that
  // enters a state lands in a leaf: transient leaves (`build_context.measuring`) are listed too.
  const inspect = observeMicrosteps((microstep) => {
    for (const t of microstep.transitions()) {
      transitions.push(t.id);
      takenAt.push(sent);
    }
    if (microstep.entered && states.at(-1) !== microstep.state) states.push(microstep.state);
  });
  const actor = createActor(machine, { input: path.start.input, inspect });
  actor.start();
  const events = path.steps.slice(1).map((s) => s.event);
  for (const event of events) {
    sent++;
    actor.send(event);
  }
  const snapshot = actor.getSnapshot() as { value: unknown; context: { stopReason: StopReason | null } };
  actor.stop();
  return {
    name: pathName(path),
    events: events.map(variantOf),
    transitions,
    takenAt,
    states,
    end: statePath(snapshot.value),
    stopReason: snapshot.context.stopReason,
  };
}

const edgeLabel = (e: ChartEdge) =>
  `${e.kind === 'root' ? 'any state' : e.from} --${eventLabel(e)}${e.guard ? ` [${e.guard}]` : ''}--> ${e.to}`;

/**
 * Every generated path with what it covers, and the coverage of the chart by all of them.
 * @example const report = pathsReport(generatePaths()); report.coverage[1] // { what: 'transitions', covered: 60, total: 60 }
 */
export function pathsReport(paths: EnginePath[]): PathsReport {
  const guardCounts = new Map<string, { true: number; false: number }>();
  const machine = observedMachine(guardCounts);
  const reports = paths.map((p) => tracePath(p, machine)).sort((a, b) => a.name.localeCompare(b.name));
  const chart = chartTransitions(testMachine).map((t) => t.edge);
  const taken = new Map<string, number>();
  for (const r of reports) for (const id of new Set(r.transitions)) taken.set(id, (taken.get(id) ?? 0) + 1);
  const states = new Set(reports.flatMap((r) => r.states.flatMap(withAncestors)));
  const reasons = new Set(reports.map((r) => r.stopReason).filter((r) => r !== null));
  const variants = new Set(reports.flatMap((r) => r.events));
  const guardNames = Object.keys(testMachine.implementations.guards);
  const guards = guardNames.map((g) => ({ guard: g, ...(guardCounts.get(g) ?? { true: 0, false: 0 }) }));
  return {
    paths: reports,
    coverage: [
      { what: 'states', covered: CHART_STATES.filter((s) => states.has(s)).length, total: CHART_STATES.length },
      { what: 'transitions', covered: chart.filter((e) => taken.has(e.id)).length, total: chart.length },
      {
        what: 'guard outcomes',
        covered: guards.reduce((n, g) => n + (g.true ? 1 : 0) + (g.false ? 1 : 0), 0),
        total: guardNames.length * 2,
      },
      { what: 'stop reasons', covered: STOP_REASONS.filter((r) => reasons.has(r)).length, total: STOP_REASONS.length },
      { what: 'event variants', covered: ALL_VARIANTS.filter((v) => variants.has(v)).length, total: ALL_VARIANTS.length },
    ],
    transitions: chart.map((e) => ({ id: e.id, label: edgeLabel(e), paths: taken.get(e.id) ?? 0 })),
    guards,
    uncovered: {
      states: CHART_STATES.filter((s) => !states.has(s)),
      transitions: chart.filter((e) => !taken.has(e.id)).map((e) => e.id),
      guardOutcomes: guards.flatMap((g) => [...(g.true ? [] : [`${g.guard} true`]), ...(g.false ? [] : [`${g.guard} false`])]),
      stopReasons: STOP_REASONS.filter((r) => !reasons.has(r)),
      variants: ALL_VARIANTS.filter((v) => !variants.has(v)),
    },
  };
}
