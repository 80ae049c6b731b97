import type { PathReport, PathsReport } from './path-coverage.js';
import type { Witness } from './paths-check.js';

const cell = (text: string) => text.replaceAll('|', '\\|');
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;

/**
 * The paths report as Markdown: the coverage table, each transition with the number of paths
 * that take it, guard outcomes, then every path with its events, states and transitions.
 * @example process.stdout.write(pathsMarkdown(pathsReport(generatePaths()), LIMITS));
 */
export function pathsMarkdown(report: PathsReport, limits: { maxTurns: number; maxToolCalls: number }): string {
  const out = [
    '# Generated paths through the query engine chart',
    '',
    `${report.paths.length} paths, generated from \`machines/query-engine.ts\` with \`xstate/graph\` (maxTurns ${limits.maxTurns},`,
    `maxToolCalls ${limits.maxToolCalls}): one per edge of the chart's reachable state space, from every hook configured, and`,
    'through the first model answer from the other starts (named before their events: no hooks, a later task of the run, ...).',
    'States are named by their full path (`ask_permission.asking_user`). `npm run test:paths` replays each path against a',
    'real actor with an independent oracle and the engine invariants checked at every step.',
    '',
    '## Coverage',
    '',
    '| covered | n / total | % |',
    '| --- | ---: | ---: |',
    ...report.coverage.map((row) => `| ${row.what} | ${row.covered} / ${row.total} | ${pct(row.covered, row.total)} |`),
    '',
    '## Transitions',
    '',
    '| transition | id | paths taking it |',
    '| --- | --- | ---: |',
    ...report.transitions.map((t) => `| \`${cell(t.label)}\` | \`${t.id}\` | ${t.paths || '**none**'} |`),
    '',
    '## Guard outcomes (evaluations over all paths)',
    '',
    '| guard | true | false |',
    '| --- | ---: | ---: |',
    ...report.guards.map((g) => `| ${g.guard} | ${g.true} | ${g.false} |`),
    '',
    '## Paths',
    '',
    ...pathsTable(report.paths),
    '',
  ];
  return out.join('\n');
}

/** The paths as a table: events, states entered, where each ends, transitions taken. */
export function pathsTable(paths: PathReport[]): string[] {
  return [
    '| # | events | states entered | ends in | transitions taken |',
    '| ---: | --- | --- | --- | --- |',
    ...paths.map((p, k) => {
      const end = p.stopReason ? `done (${p.stopReason})` : `${p.end} (still waiting)`;
      return `| ${k + 1} | ${cell(p.name)} | ${p.states.join(' → ')} | ${end} | ${p.transitions.map((t) => `\`${t}\``).join(', ')} |`;
    }),
  ];
}

/**
 * One shortest witness per transition, as a table a person reads in a review.
 * @example process.stdout.write(witnessesMarkdown(witnesses(report)));
 */
export function witnessesMarkdown(list: Witness[]): string {
  return [
    '# One shortest path per transition',
    '',
    `${list.length} transitions, each with the fewest events after which a generated path takes it (\`xagent paths --minimal\`).`,
    '',
    '| transition | start | events |',
    '| --- | --- | --- |',
    ...list.map(
      (w) =>
        `| \`${cell(w.transition)}\` | ${cell(w.start || 'main')} | ${w.events.length > 0 ? cell(w.events.join(' > ')) : '(on start)'} |`,
    ),
    '',
  ].join('\n');
}
