import type { ChartDiff, Changes } from './chart-diff.js';

const code = (id: string) => `\`${id.replaceAll('`', "'")}\``;

function section(title: string, changes: Changes): string[] {
  const rows = [
    ...changes.added.map((id) => `- added ${code(id)}`),
    ...changes.removed.map((id) => `- removed ${code(id)}`),
    ...changes.changed.map((id) => `- changed ${code(id)}`),
  ];
  return rows.length > 0 ? [`### ${title}`, '', ...rows, ''] : [];
}

export interface CoverageChange {
  /** `transitions`, `guard outcomes`, ... as `xagent paths` counts them. */
  what: string;
  /** The older side: its totals (from its chart); how much of it was covered only when known. */
  before?: { covered?: number; total: number };
  after: { covered: number; total: number };
}

/**
 * The diff of two charts as a pull-request comment: a table of counts, every added, removed and
 * changed id, the states whose views show it, and the path coverage before and after when known.
 * @example diffMarkdown(diff, { before: 'main', after: 'HEAD', command: 'xagent diagram --diff main' })
 */
export function diffMarkdown(
  diff: ChartDiff,
  labels: { before: string; after: string; command: string },
  coverage: CoverageChange[] = [],
): string {
  const count = (c: Changes) => `${c.added.length} | ${c.removed.length} | ${c.changed.length}`;
  const total = (['states', 'transitions', 'guards', 'actions'] as const).reduce(
    (n, k) => n + diff[k].added.length + diff[k].removed.length + diff[k].changed.length,
    0,
  );
  const head = [`## Chart diff: ${labels.before} → ${labels.after}`, '', `Chart ${diff.before} → ${diff.after}.`, ''];
  const paths =
    coverage.length > 0
      ? [
          '### Path coverage',
          '',
          `Of the paths this xagent generates (\`xagent paths --check\`); the other side's paths are not replayed here.`,
          '',
          '| | before | after |',
          '| --- | ---: | ---: |',
          ...coverage.map(
            (c) =>
              `| ${c.what} | ${c.before ? `${c.before.covered ?? '?'} / ${c.before.total}` : '-'} | ${c.after.covered} / ${c.after.total} |`,
          ),
          '',
        ]
      : [];
  if (total === 0) return [...head, 'Nothing changed: the same states, transitions, guards and actions.', '', ...paths].join('\n');
  return [
    ...head,
    '| | added | removed | changed |',
    '| --- | ---: | ---: | ---: |',
    `| states | ${count(diff.states)} |`,
    `| transitions | ${count(diff.transitions)} |`,
    `| guards | ${diff.guards.added.length} | ${diff.guards.removed.length} | - |`,
    `| actions | ${diff.actions.added.length} | ${diff.actions.removed.length} | - |`,
    '',
    ...section('States', diff.states),
    ...section('Transitions', diff.transitions),
    ...section('Guards', diff.guards),
    ...section('Actions', diff.actions),
    '### Where to look',
    '',
    `Overview: \`${labels.command} --depth 1 --format svg\`; each touched state:`,
    '',
    ...diff.touched.map((s) => `- ${code(s)}: \`${labels.command} --state ${s} --format svg\``),
    '',
    ...paths,
  ].join('\n');
}
