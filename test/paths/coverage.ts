import type { AnyStateMachine } from 'xstate';
import { queryEngine } from '../../machines/query-engine.js';
import { STOP_REASONS, type StopReason } from '../../machines/types.js';
import { chartTransitions, eventLabel } from '../../machines/chart-graph.js';
import { ALL_VARIANTS } from '../../src/paths/engine-model.js';
import { CHART_STATES, withAncestors, withGuardCounts } from '../../src/paths/path-coverage.js';
import { RECOVERABLE_CODES, TOOL_RECOVERABLE_CODES } from '../../src/paths/path-events.js';

/**
 * Outcomes the chart routes the same way but that differ in what the model or the user sees:
 * the error code in a recovered call's result, who allowed or refused a call, the result's flag.
 */
export const OUTCOMES = [
  // Each code recovery.ts calls recoverable, where the chart can meet it.
  ...RECOVERABLE_CODES.map((code) => `recover from validate_tool after ${code}`),
  ...TOOL_RECOVERABLE_CODES.map((code) => `recover from execute_tool after ${code}`),
  'recover from ask_permission after PERMISSION_DENIED by the policy',
  'recover from ask_permission after PERMISSION_DENIED by the user',
  'recover from ask_permission after PERMISSION_DENIED by a hook',
  'execute_tool allowed by the policy',
  'execute_tool allowed by the user',
  'execute_tool allowed by a hook',
  'permission_denied by the policy',
  'permission_denied by the user',
  'permission_denied by a failed prompt',
  'permission_denied by a hook',
  'the model goes on after a Stop hook blocked',
  'the prompt carries a hook context',
  'tool result ok',
  'tool result is_error',
];

/**
 * What the replayed paths exercised on the real actor: states entered (every node, nested ones too), transitions taken (by id,
 * from `@xstate.microstep`), both outcomes of every guard, every stop reason and event variant.
 * The chart's own transitions, read from `machine.root`, are the denominator.
 */
export class Coverage {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();
  readonly guards = new Map<string, { true: number; false: number }>();
  readonly reasons = new Set<StopReason>();
  readonly variants = new Set<string>();
  readonly outcomes = new Set<string>();
  readonly chart = chartTransitions(queryEngine).map((t) => t.edge);
  readonly guardNames = Object.keys(queryEngine.implementations.guards);

  /** The machine with each guard wrapped to count its outcomes. */
  instrument<M extends AnyStateMachine>(machine: M): M {
    return withGuardCounts(machine, this.guards);
  }

  /** A leaf's full path; the states it is nested in are entered with it. */
  state(path: string): void {
    for (const state of withAncestors(path)) this.states.add(state);
  }
  transition(id: string): void {
    this.transitions.add(id);
  }
  reason(reason: StopReason): void {
    this.reasons.add(reason);
  }
  outcome(name: string): void {
    this.outcomes.add(name);
  }
  variant(name: string): void {
    this.variants.add(name);
  }

  uncovered() {
    return {
      states: CHART_STATES.filter((s) => !this.states.has(s)),
      transitions: this.chart.filter((e) => !this.transitions.has(e.id)).map((e) => e.id),
      guardOutcomes: this.guardNames.flatMap((g) => {
        const c = this.guards.get(g) ?? { true: 0, false: 0 };
        return [...(c.true ? [] : [`${g}=true`]), ...(c.false ? [] : [`${g}=false`])];
      }),
      reasons: STOP_REASONS.filter((r) => !this.reasons.has(r)),
      outcomes: OUTCOMES.filter((o) => !this.outcomes.has(o)),
      variants: ALL_VARIANTS.filter((v) => !this.variants.has(v)),
    };
  }

  /** The table `npm run test:paths` prints. */
  table(paths: number): string {
    const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`.padStart(8);
    const row = (what: string, n: number, of: number) => `${what.padEnd(16)}${`${n}/${of}`.padStart(8)}${pct(n, of)}`;
    const guardOutcomes = this.guardNames.length * 2 - this.uncovered().guardOutcomes.length;
    const lines = [
      `generated paths replayed against the real actor: ${paths}`,
      `${'covered'.padEnd(16)}${'n/total'.padStart(8)}${'%'.padStart(8)}`,
      row('states', CHART_STATES.length - this.uncovered().states.length, CHART_STATES.length),
      row('transitions', this.chart.length - this.uncovered().transitions.length, this.chart.length),
      row('guard outcomes', guardOutcomes, this.guardNames.length * 2),
      row('stop reasons', STOP_REASONS.length - this.uncovered().reasons.length, STOP_REASONS.length),
      row('data outcomes', OUTCOMES.length - this.uncovered().outcomes.length, OUTCOMES.length),
      '',
      `${'transition'.padEnd(100)}taken`,
      ...this.chart.map((e) => {
        const label = `${e.from} --${eventLabel(e)}${e.guard ? ` [${e.guard}]` : ''}--> ${e.to}`;
        return `${label.padEnd(100)}${this.transitions.has(e.id) ? 'yes' : 'NO'}`;
      }),
    ];
    return lines.join('\n');
  }
}
