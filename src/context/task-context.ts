import { readEnvironment, type Environment } from './environment.js';
import { loadProjectInstructions, type InstructionFile } from './project-instructions.js';
import { buildSystemPrompt } from './system-prompt.js';

/** What a task starts from: the system prompt and where its parts came from (for the trace and /context). */
export interface TaskContext {
  system: string;
  environment: Environment;
  instructions: InstructionFile[];
}

/**
 * Reads the environment and the instruction files once, for one task. Never rejects: git that
 * fails or hangs (two seconds at most) gives no git facts, an unreadable file is skipped.
 * @example const { system, instructions } = await loadTaskContext({ workspace, home: process.env.XAGENT_HOME ?? null });
 */
export async function loadTaskContext({
  workspace,
  home,
  now,
  outsideImports = false,
}: {
  workspace: string;
  home: string | null;
  now?: Date;
  /** The project is trusted: its instruction files may import from the person's folders. */
  outsideImports?: boolean;
}): Promise<TaskContext> {
  const environment = await readEnvironment(workspace, now);
  const instructions = loadProjectInstructions({ workspace, repoRoot: environment.git?.root ?? null, home, outsideImports });
  return { system: buildSystemPrompt({ environment, instructions }), environment, instructions };
}
