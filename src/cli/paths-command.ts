import type { Command } from 'commander';
import { parseChoice } from '../run/parse-options.js';
import { UsageError } from './exit-codes.js';

export const PATHS_FORMATS = ['markdown', 'json'] as const;

interface RawPathsOptions {
  format: string;
  all?: boolean;
  check?: boolean;
  minimal?: boolean;
  through?: string;
}

/**
 * `xagent paths [--format markdown|json] [--check] [--minimal] [--through <state|transition id>]`:
 * the paths the test suite generates from the chart, what each covers, and the coverage, so a
 * review can read them without running the tests; `--check` exits 1 naming every gap.
 * @example registerPathsCommand(program, process.stdout, setExit);
 */
export function registerPathsCommand(
  program: Command,
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
  setExit: (code: number) => void = () => undefined,
  stderr: NodeJS.WritableStream = process.stderr,
): void {
  program
    .command('paths')
    .description('the paths generated from the chart (as the test suite replays them), what each covers, and the coverage')
    .option('--format <format>', PATHS_FORMATS.join(', '), 'markdown')
    .option('--all', 'on a terminal too, list every path (megabytes); a pipe or a file always gets them all')
    .option('--check', 'exit 1 naming each transition, guard outcome, stop reason, state or event left uncovered')
    .option('--minimal', 'one shortest witness path per transition')
    .option('--through <id>', 'only the paths through a state (call_model, ask_permission.asking_user) or a transition id')
    .action(async (raw: RawPathsOptions) => {
      const format = parseChoice(raw.format, PATHS_FORMATS, '--format');
      // Loaded here: path generation pulls in xstate/graph, which a task run never needs.
      const { generatePaths } = await import('../paths/generate-paths.js');
      const { pathsReport, CHART_STATES } = await import('../paths/path-coverage.js');
      const { LIMITS } = await import('../paths/engine-model.js');
      const { coverageGaps, pathsThrough, witnesses } = await import('../paths/paths-check.js');
      const markdown = await import('../paths/paths-markdown.js');
      const { chartTransitions } = await import('../../machines/chart-graph.js');
      const { testMachine } = await import('../paths/engine-model.js');
      const ids = new Set(chartTransitions(testMachine).map((t) => t.edge.id));
      if (raw.through !== undefined && !CHART_STATES.includes(raw.through) && !ids.has(raw.through))
        throw new UsageError(
          `--through "${raw.through}" is neither a state nor a transition id of the chart (states: ${CHART_STATES.join(', ')}; transition ids: xagent paths --minimal)`,
        );
      const report = pathsReport(generatePaths());
      const paths = raw.through === undefined ? report.paths : pathsThrough(report, raw.through);
      if (raw.check) {
        const gaps = coverageGaps(report);
        if (gaps.length > 0) {
          stderr.write(`${gaps.join('\n')}\n`);
          setExit(1);
          return;
        }
        const rows = report.coverage.map((row) => `${row.what} ${row.covered}/${row.total}`).join(', ');
        stdout.write(`Coverage complete over ${report.paths.length} generated paths: ${rows}.\n`);
        return;
      }
      if (raw.minimal) {
        // Through a transition: its own witness; through a state: the witnesses found on the paths entering it.
        const only = raw.through !== undefined && ids.has(raw.through) ? raw.through : undefined;
        const list = witnesses(report, paths).filter((w) => only === undefined || w.transition === only);
        stdout.write(format === 'json' ? `${JSON.stringify(list, null, 2)}\n` : markdown.witnessesMarkdown(list));
        return;
      }
      if (raw.through !== undefined) {
        stdout.write(
          format === 'json'
            ? `${JSON.stringify(paths, null, 2)}\n`
            : [
                `# Generated paths through ${raw.through}`,
                '',
                `${paths.length} of ${report.paths.length} paths.`,
                '',
                ...markdown.pathsTable(paths),
                '',
              ].join('\n'),
        );
        return;
      }
      if (format === 'json') {
        stdout.write(`${JSON.stringify({ limits: LIMITS, ...report }, null, 2)}\n`);
        return;
      }
      const text = markdown.pathsMarkdown(report, LIMITS);
      // On a terminal the path table (megabytes) would scroll everything else away: a summary and how to get it all.
      const cut = text.indexOf('\n## Paths\n');
      if (!stdout.isTTY || raw.all || cut < 0) {
        stdout.write(text);
        return;
      }
      const size = `${(Buffer.byteLength(text) / 1_000_000).toFixed(1)} MB`;
      stdout.write(
        `${text.slice(0, cut)}\n## Paths\n\n${report.paths.length} paths, not listed on a terminal (${size}): \`xagent paths > paths.md\`, \`xagent paths | less\`, \`xagent paths --all\`, or one per transition: \`xagent paths --minimal\`.\n`,
      );
    });
}
