/**
 * The one error tree. Every error xagent throws on purpose is an `XagentError` with a `fault`
 * saying whose problem it is; the CLI maps faults to exit codes in one place
 * (src/cli/exit-codes.ts), and the library's callers can branch on `fault` alike. The message is
 * what the user sees, so it names the file, flag or session and says what to do.
 *
 * - `usage`: a flag, option or argument that cannot be run as given (nothing was sent to the model);
 * - `config`: a settings file, hook, rule or sandbox setting that is wrong or cannot be honoured;
 * - `session`: a recorded session that cannot be found, read or taken;
 * - `model`: the model API failed in a way no retry fixed;
 * - `tool`: a tool's own failure (it reaches the model as an `is_error` result);
 * - `system`: the machine said no: a full disk, an I/O error (the session stays resumable);
 * - `internal`: a bug in xagent.
 */
export const FAULTS = ['usage', 'config', 'session', 'model', 'tool', 'system', 'internal'] as const;
export type Fault = (typeof FAULTS)[number];

export class XagentError extends Error {
  override readonly name: string = 'XagentError';
  readonly fault: Fault = 'internal';
}

/**
 * The task could not start as asked, and nothing was sent to the model: a bad flag or option, a
 * missing key, a malformed settings file, an unknown session. The CLI exits 2 with its message; the
 * library throws it from `query()` before any request. Its subclasses say which part was wrong
 * (fault `config` or `session`); a plain UsageError is fault `usage`.
 * @example throw new UsageError('ANTHROPIC_API_KEY is not set');
 */
export class UsageError extends XagentError {
  override readonly name: string = 'UsageError';
  override readonly fault: 'usage' | 'config' | 'session' = 'usage';
}

/**
 * A workspace whose project files (MCP servers, hooks, allow rules) are not trusted, with nobody to
 * ask (`-p` without a terminal): the message says how to trust them. Exit 2, as every UsageError;
 * `-p --output-format json` names it `untrusted_project`.
 */
export class UntrustedProjectError extends UsageError {
  override readonly name: string = 'UntrustedProjectError';
  override readonly fault = 'config' as const;
}

/** The fault of anything thrown: an XagentError's own, `internal` for everything else. */
export function faultOf(error: unknown): Fault {
  return error instanceof XagentError ? error.fault : 'internal';
}
