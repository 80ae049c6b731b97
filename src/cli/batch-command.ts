import type { Command } from 'commander';
import { addRunFlags } from '../run/add-run-flags.js';

/**
 * `xagent batch <tasks.jsonl> [--concurrency N] [--out results.jsonl] [run flags]`: many tasks in
 * this one process (src/batch/), with the run flags every task command takes (addRunFlags).
 */
export function registerBatchCommand(program: Command, setExit: (code: number) => void): void {
  addRunFlags(program.command('batch'), 'batch')
    .description('run every task of a JSONL file ({"id"?, "prompt", "cwd"?, ...}), N at a time; one result line per task')
    .argument('<tasks.jsonl>', 'one task per line; - reads standard input')
    .option('--concurrency <n>', 'tasks running at once (default 10)')
    .option('--out <file>', 'append the results here (default: standard output); a second run skips the ids already in it')
    .action(async (file: string, _local: unknown, command: Command) => {
      // Loaded here: the engine and the run setup only when a batch runs.
      const { runBatchCommand } = await import('./batch-run.js');
      setExit(await runBatchCommand(file, command.optsWithGlobals()));
    });
}
