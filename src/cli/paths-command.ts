import type { Command } from 'commander';
import { parseChoice } from '../run/parse-options.js';

export const PATHS_FORMATS = ['markdown', 'json'] as const;

/**
 * `xagent paths [--format markdown|json]`: the paths the test suite generates from the chart,
 * what each covers, and the coverage table, so a review can read them without running the tests.
 * @example registerPathsCommand(program, process.stdout);
 */
export function registerPathsCommand(program: Command, stdout: NodeJS.WritableStream): void {
  program
    .command('paths')
    .description('the paths generated from the chart (as the test suite replays them), what each covers, and the coverage')
    .option('--format <format>', PATHS_FORMATS.join(', '), 'markdown')
    .action(async (raw: { format: string }) => {
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
      stdout.write(pathsMarkdown(report, LIMITS));
    });
}
