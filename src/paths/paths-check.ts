import type { PathReport, PathsReport } from './path-coverage.js';

/** Where what the paths can do is written: a gap in coverage is closed there, or in the chart. */
export const OUTCOME_MODEL = [
  'src/paths/path-events.ts (one event per outcome of each invoked actor)',
  'src/paths/engine-model.ts (the starts, the limits, the test rules)',
];

/**
 * `xagent paths --check`: empty when every state, transition, guard outcome, stop reason and event
 * variant is covered; otherwise one line for each thing uncovered, and where the outcome model lives.
 * @example const lines = coverageGaps(report); process.exitCode = lines.length > 0 ? 1 : 0;
 */
export function coverageGaps(report: PathsReport): string[] {
  const { uncovered } = report;
  const gaps = [
    ...uncovered.states.map((id) => `state not entered: ${id}`),
    ...uncovered.transitions.map((id) => `transition not taken: ${id}`),
    ...uncovered.guardOutcomes.map((outcome) => `guard outcome not seen: ${outcome}`),
    ...uncovered.stopReasons.map((reason) => `stop reason not reached: ${reason}`),
    ...uncovered.variants.map((variant) => `event variant not sent: ${variant}`),
  ];
  if (gaps.length === 0) return [];
  return [
    `${gaps.length} gaps in the coverage of the generated paths:`,
    ...gaps.map((gap) => `  ${gap}`),
    'The outcomes the paths are generated from live in:',
    ...OUTCOME_MODEL.map((file) => `  ${file}`),
  ];
}

export interface Witness {
  transition: string;
  /** The path's start (its name; empty for the main one) and its events up to the transition. */
  start: string;
  events: string[];
}

const startOf = (path: PathReport) => {
  const joined = path.events.join(' > ');
  return path.name.endsWith(joined) ? path.name.slice(0, path.name.length - joined.length).replace(/: $/, '') : '';
};

/**
 * One shortest witness per transition: the fewest events, over all paths, after which it was taken.
 * @example witnesses(report)[0] // { transition: 'queryEngine:ABORT>done', start: '', events: ['abort'] }
 */
export function witnesses(report: PathsReport, paths: PathReport[] = report.paths): Witness[] {
  const best = new Map<string, Witness>();
  for (const path of paths) {
    path.transitions.forEach((id, k) => {
      const at = path.takenAt[k] ?? path.events.length;
      const known = best.get(id);
      if (!known || at < known.events.length) best.set(id, { transition: id, start: startOf(path), events: path.events.slice(0, at) });
    });
  }
  return report.transitions.flatMap((t) => {
    const w = best.get(t.id);
    return w ? [w] : [];
  });
}

/** The paths that enter a state (or one nested in it) or take a transition, by id. */
export function pathsThrough(report: PathsReport, id: string): PathReport[] {
  return report.paths.filter((p) => p.transitions.includes(id) || p.states.some((s) => s === id || s.startsWith(`${id}.`)));
}
