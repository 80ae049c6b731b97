import type { Command } from 'commander';
import { parseChoice } from '../run/parse-options.js';

export const PATHS_FORMATS = ['markdown', 'json'] as const;

/**
 * `xagent paths [--format markdown|json]`: the paths the test suite generates from the chart,
 * what each covers, and the coverage table, so a review can read them without running the tests.
 * @example registerPathsCommand(program, process.stdout);
 */
export function registerPathsCommand(program: Command, stdout: NodeJS.WritableStream & { isTTY?: boolean }): void {
  program
    .command('paths')
    .description('the paths generated from the chart (as the test suite replays them), what each covers, and the coverage')
    .option('--format <format>', PATHS_FORMATS.join(', '), 'markdown')
    .option('--all', 'on a terminal too, list every path (megabytes); a pipe or a file always gets them all')
    .action(async (raw: { format: string; all?: boolean }) => {
      const format = parseChoice(raw.format, PATHS_FORMATS, '--format');
      // Loaded here: path generation pulls in xstate/graph, which a task run never needs.
      const { generatePaths } = await import('../paths/generate-paths.js');
      const { pathsReport } = await import('../paths/path-coverage.js');
      const { LIMITS } = await import('../paths/engine-model.js');
      const report = pathsReport(generatePaths());
      if (format === 'json') {
        stdout.write(`${JSON.stringify({ limits: LIMITS, ...report }, null, 2)}\n`);
        return;
      }
      const { pathsMarkdown } = await import('../paths/paths-markdown.js');
      const markdown = pathsMarkdown(report, LIMITS);
      // On a terminal the path table (megabytes) would scroll everything else away: a summary and how to get it all.
      const cut = markdown.indexOf('\n## Paths\n');
      if (!stdout.isTTY || raw.all || cut < 0) {
        stdout.write(markdown);
        return;
      }
      const size = `${(Buffer.byteLength(markdown) / 1_000_000).toFixed(1)} MB`;
      stdout.write(
        `${markdown.slice(0, cut)}\n## Paths\n\n${report.paths.length} paths, not listed on a terminal (${size}): \`xagent paths > paths.md\`, \`xagent paths | less\` or \`xagent paths --all\`.\n`,
      );
    });
}
