import type { Environment } from './environment.js';
import type { InstructionFile } from './project-instructions.js';

/**
 * The system prompt of a task. Built once per task from facts that do not change during it (no
 * clock time, no counters), so every round sends the same bytes and reads them from the cache.
 */

const TOOL_GUIDANCE = `# Using the tools
- Paths are relative to the workspace root; nothing outside it can be read or written.
- Find before you read: glob for file names, grep for contents, list_dir for a folder's shape.
- Read a file (read_file) before you change it, and read enough of it to know its conventions.
- Prefer edit_file (an exact old_string, unique in the file, and its replacement) to rewriting a
  whole file with write_file; use write_file for new files.
- bash runs a command in the workspace: run the project's tests, build or linter after a change
  and read what they say. Avoid interactive commands and commands that never end.
- Independent look-ups can go in one response as several tool calls.
- A tool result with is_error tells you what went wrong: fix the call rather than repeat it.`;

const WORKING_STYLE = `# How to work
- Do what was asked; keep changes small and in the project's style. Do not add files nobody asked for.
- When the task is done, answer with a short summary of what you did and what is left, if anything.`;

function environmentSection(env: Environment): string {
  const lines = [
    '# Environment',
    `- Workspace root: ${env.workspace}`,
    `- Platform: ${env.platform} (${env.osRelease}); shell: ${env.shell}`,
    `- Today's date: ${env.date}`,
  ];
  if (!env.git) {
    lines.push('- Not a git repository.');
    return lines.join('\n');
  }
  lines.push(`- Git repository at ${env.git.root}, branch ${env.git.branch ?? '(detached HEAD)'}`);
  lines.push(
    env.git.status
      ? `- git status --short at the start of the task:\n${env.git.status}`
      : '- The working tree was clean at the start of the task.',
  );
  return lines.join('\n');
}

function instructionsSection(files: readonly InstructionFile[]): string | null {
  if (files.length === 0) return null;
  const parts = files.map((f) => `## ${f.path}\n${f.text.trimEnd()}`);
  return `# Project instructions\nThe project's own instructions (later files are closer to the workspace and take precedence):\n\n${parts.join('\n\n')}`;
}

/**
 * @example buildSystemPrompt({ environment: await readEnvironment(ws), instructions: loadProjectInstructions({ workspace: ws, repoRoot, home }) })
 */
export function buildSystemPrompt({
  environment,
  instructions,
}: {
  environment: Environment;
  instructions: readonly InstructionFile[];
}): string {
  return [
    'You are xagent, a coding agent working in a local workspace through tools.',
    TOOL_GUIDANCE,
    WORKING_STYLE,
    environmentSection(environment),
    instructionsSection(instructions),
  ]
    .filter((part): part is string => part !== null)
    .join('\n\n');
}
