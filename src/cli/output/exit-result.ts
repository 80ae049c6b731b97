/**
 * `-p --output-format json` prints exactly one JSON object on every exit. A task's own end is its
 * result (json.ts); this file covers the exits before or around a task: a bad flag, a malformed
 * settings file, an untrusted workspace, Ctrl-C during start-up, an error after the task. A script
 * that reads `.is_error` and `.result` then always finds them, and never an empty stdout.
 * Kept free of imports: early-signals.ts loads it before anything else.
 */

/**
 * Whether a result object reached stdout already: then a later error must not print a second one.
 * Kept on globalThis: a `-p` run loads a second copy of the CLI (the compiled core) beside bin.ts's.
 */
const PRINTED = Symbol.for('xagent.result-printed');
const registry = globalThis as { [PRINTED]?: true };

export function noteResultPrinted(): void {
  registry[PRINTED] = true;
}

/** The format this command line asks `-p` to print in, read from the raw words (commander may not have run, or failed). */
export function printFormatOf(argv: readonly string[]): 'json' | 'stream-json' | null {
  const args = argv.slice(2);
  if (!args.includes('-p') && !args.includes('--print')) return null;
  let format: string | undefined;
  args.forEach((arg, i) => {
    if (arg === '--output-format') format = args[i + 1];
    else if (arg.startsWith('--output-format=')) format = arg.slice('--output-format='.length);
  });
  return format === 'json' || format === 'stream-json' ? format : null;
}

/** What scripts branch on: the reason an exit that is not a task's stop reason had, by its fault. */
export type ExitReason =
  | 'usage_error'
  | 'config_error'
  | 'session_error'
  | 'model_error'
  | 'tool_error'
  | 'system_error'
  | 'internal_error'
  | 'untrusted_project'
  | 'user_abort';

/**
 * The result object of an exit without a task result, in the shape of a task's (Claude Code's fields
 * included), with `is_error: true`, the `reason` and the `message` saying what to do.
 * @example exitResult({ reason: 'usage_error', message: '--max-turns "x" must be a whole number', exitCode: 2 })
 */
export function exitResult({
  reason,
  message,
  exitCode,
}: {
  reason: ExitReason;
  message: string;
  exitCode: number;
}): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    reason,
    message,
    exit_code: exitCode,
    result: message,
    text: message,
    session_id: null,
    turns: 0,
    num_turns: 0,
    tool_calls: 0,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    total_cost_usd: 0,
    duration_ms: Math.round(process.uptime() * 1000),
    trace_path: null,
    permission_denials: [],
  };
}

/**
 * Prints the exit's result object on stdout when `-p` was asked for json or stream-json and no
 * result was printed yet; does nothing otherwise.
 */
export function printExitResult(argv: readonly string[], result: { reason: ExitReason; message: string; exitCode: number }): void {
  if (registry[PRINTED] || printFormatOf(argv) === null) return;
  noteResultPrinted();
  process.stdout.write(`${JSON.stringify(exitResult(result))}\n`);
}
