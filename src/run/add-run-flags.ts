import type { Command } from 'commander';
import { DEFAULT_LIMITS } from '../engine/limits.js';
import { PERMISSION_MODES } from '../permissions/types.js';

/**
 * The run flags, declared once: `xagent` / `-p`, `xagent acp` and `xagent submit` (and every other
 * command that runs tasks) add them with `addRunFlags`, so their help lists the same flags with the
 * same texts. This file stays light (no run-config imports): the CLI's entry loads it to build --help.
 */

/** The commands that run tasks; each flag names the ones that take it. */
export type RunCommand = 'print' | 'acp' | 'submit' | 'batch';

/** The flags as commander hands them over, all still strings: one type for every command that runs tasks. */
export interface RunFlags {
  print?: boolean;
  model?: string;
  maxTurns?: string;
  maxToolCalls?: string;
  timeout?: string;
  outputFormat?: string;
  permissionMode?: string;
  allow?: string[];
  deny?: string[];
  /** Claude Code's --allowedTools / --disallowedTools: lists of rules, each value comma- or space-separated. */
  allowedTools?: string[];
  disallowedTools?: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  cwd?: string;
  resume?: string;
  continue?: boolean;
  /** --fork-session: with --resume / --continue, work in a new session forked from it. */
  forkSession?: boolean;
  inspect?: string | boolean;
  modelScript?: string;
  /** --sandbox (true) / --no-sandbox (false). */
  sandbox?: boolean;
  maxThinkingTokens?: string;
  contextWindow?: string;
  /** --trust: use the project files' MCP servers, hooks and allow rules without asking (also XAGENT_TRUST=1). */
  trust?: boolean;
  /** --stop-on-denial: in -p, a refused call stops the task (permission_denied, exit 6) instead of going back to the model. */
  stopOnDenial?: boolean;
  /** --permission-prompt-tool mcp__<server>__<tool>: in -p, that MCP tool answers what a person would be asked. */
  permissionPromptTool?: string;
}

/** The limits' defaults as --help shows them, from the one DEFAULT_LIMITS. */
export const FLAG_DEFAULTS = {
  maxTurns: String(DEFAULT_LIMITS.maxTurns),
  maxToolCalls: String(DEFAULT_LIMITS.maxToolCalls),
  timeout: `${DEFAULT_LIMITS.timeoutMs / 60_000}m`,
} as const;

const collect = (value: string, previous: string[] = []) => [...previous, value];
const ALL: readonly RunCommand[] = ['print', 'acp', 'submit', 'batch'];
const unlimited = 'the interactive UI: no limit';

interface RunFlagDeclaration {
  flags: string;
  description: string;
  repeatable?: boolean;
  /** The commands that take it; all of them unless named. */
  for?: readonly RunCommand[];
}

/** Every run flag, in the order --help lists them. */
export const RUN_FLAGS: readonly RunFlagDeclaration[] = [
  { flags: '-p, --print', description: 'run one task and exit (non-interactive)', for: ['print'] },
  { flags: '--model <id>', description: 'model id (default: $ANTHROPIC_MODEL or a current Claude model)' },
  { flags: '--max-turns <n>', description: `model rounds per task (default: ${FLAG_DEFAULTS.maxTurns}; ${unlimited})` },
  { flags: '--max-tool-calls <n>', description: `tool executions per task (default: ${FLAG_DEFAULTS.maxToolCalls}; ${unlimited})` },
  {
    flags: '--timeout <duration>',
    description: `time per task, waiting for a person excluded: 90000, 90s, 2m (default: ${FLAG_DEFAULTS.timeout}; ${unlimited})`,
  },
  { flags: '--output-format <format>', description: 'text, json or stream-json (default: text)', for: ['print'] },
  {
    flags: '--stop-on-denial',
    description: 'stop the task when a call is refused (permission_denied, exit 6) instead of telling the model and going on',
    for: ['print'],
  },
  {
    flags: '--permission-prompt-tool <mcp-tool>',
    description: "an MCP tool (mcp__<server>__<tool>) answers the permission questions, with Claude Code's input and output",
    for: ['print'],
  },
  { flags: '--permission-mode <mode>', description: `${PERMISSION_MODES.join(', ')} (default: settings, else default)` },
  { flags: '--allow <rule>', description: 'allow rule, repeatable: bash(npm test*), read_file, edit_file(src/**)', repeatable: true },
  { flags: '--deny <rule>', description: 'deny rule, repeatable', repeatable: true },
  {
    flags: '--allowedTools <rules>',
    description: 'Claude Code\'s form: allow rules, comma- or space-separated: "Bash(git log:*),Read"',
    repeatable: true,
  },
  { flags: '--disallowedTools <rules>', description: "Claude Code's form: deny rules, comma- or space-separated", repeatable: true },
  { flags: '--system-prompt <text>', description: 'replace the system prompt' },
  { flags: '--append-system-prompt <text>', description: 'add text at the end of the system prompt' },
  {
    flags: '--cwd <dir>',
    description: 'workspace root; file tools never reach outside it (submit: a path the workers see)',
    for: ['print', 'submit', 'batch'],
  },
  { flags: '-r, --resume <session-id>', description: 'continue a recorded session', for: ['print'] },
  { flags: '-c, --continue', description: 'continue the latest session in this workspace', for: ['print'] },
  {
    flags: '--fork-session',
    description: 'with --resume or --continue: continue in a new session forked from it (the old one is untouched)',
    for: ['print'],
  },
  {
    flags: '--inspect [port]',
    description: 'serve the live inspector on 127.0.0.1 of the machine that runs the task (submit: the port is required)',
  },
  { flags: '--model-script <file>', description: 'use a scripted model instead of the API' },
  { flags: '--sandbox', description: 'run bash inside an OS sandbox (bubblewrap); settings: "sandbox": {"enabled": true}' },
  { flags: '--no-sandbox', description: 'run bash without the sandbox, whatever the settings say' },
  { flags: '--trust', description: "use the workspace's project MCP servers, hooks and allow rules without asking (env XAGENT_TRUST=1)" },
  { flags: '--max-thinking-tokens <n>', description: 'extended thinking budget, >= 1024 (default: $MAX_THINKING_TOKENS, else 0 = off)' },
  { flags: '--context-window <tokens>', description: "context window for compaction (default: $XAGENT_CONTEXT_WINDOW, else the model's)" },
];

/**
 * Adds the run flags that `which` takes to a command, from the one declaration above.
 * @example addRunFlags(program.command('acp'), 'acp').action(...)
 */
export function addRunFlags(command: Command, which: RunCommand): Command {
  for (const flag of RUN_FLAGS) {
    if (!(flag.for ?? ALL).includes(which)) continue;
    if (flag.repeatable) command.option(flag.flags, flag.description, collect);
    else command.option(flag.flags, flag.description);
  }
  return command;
}
