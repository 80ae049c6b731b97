import type { ToolResult } from '../../machines/types.js';
import type { ReadGate } from './read-gate.js';

export interface ToolContext {
  input: unknown;
  signal: AbortSignal;
  /** Absolute, real path of the workspace root. File tools never reach outside it. */
  workspace: string;
  /** Where write_file and edit_file keep a file's bytes before changing it (absent: nothing is kept). */
  checkpoints?: FileCheckpoints;
  /** Whether a file grep or glob found may be shown (the Read rules); absent: every file may. */
  readGate?: ReadGate;
  /** Set over the inherited environment for the commands a tool starts (the settings' `env`). */
  env?: Readonly<Record<string, string>>;
}

/**
 * The port a file tool calls before it changes a file, so a rewind can put the file back
 * (src/rewind/ implements it). Never throws: a checkpoint that could not be kept is a note.
 */
export interface FileCheckpoints {
  /** Keeps `absolute`'s bytes and mode (or its absence); call `after()` once the write succeeded. */
  before(absolute: string): Promise<{ note: string | null; after(): Promise<void> }>;
}

/**
 * A built-in tool. Expected failures (missing file, no match, non-zero exit) are returned as
 * `{ isError: true }` results the model can act on; only unexpected failures throw.
 */
export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  execute(context: ToolContext): Promise<ToolResult>;
}

/**
 * What the bash tool needs from an OS sandbox (src/sandbox/ provides it): turn a process into the
 * sandboxed one, and release what was set up for it once it has exited.
 */
export interface CommandSandbox {
  wrap(spec: { command: string; args: readonly string[]; cwd: string; env?: NodeJS.ProcessEnv }): {
    command: string;
    args: string[];
    cwd: string;
    env: NodeJS.ProcessEnv;
    release(): void;
  };
  /** One sentence for the tool's description: what the model can and cannot do in there. */
  summary: string;
}
