import type { Command } from 'commander';
import { PERMISSION_MODES } from '../permissions/types.js';
import type { RawOptions } from '../run/run-flags.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `xagent acp [run flags]`: xagent as an Agent Client Protocol agent on stdin/stdout. The flags
 * are the task flags of `-p` (limits, model, permission mode and rules, --inspect, --trust, ...),
 * applied to every session the editor opens. The protocol code (and its SDK) loads only here.
 */
export function registerAcpCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('acp')
    .description('run as an Agent Client Protocol agent on stdin/stdout (for Zed and other ACP editors)')
    .option('--model <id>', 'model id (default: $ANTHROPIC_MODEL or a current Claude model)')
    .option('--max-turns <n>', 'model rounds per prompt')
    .option('--max-tool-calls <n>', 'tool executions per prompt')
    .option('--timeout <duration>', 'wall clock per prompt: 90000, 90s, 2m')
    .option('--permission-mode <mode>', `the mode sessions start in: ${PERMISSION_MODES.join(', ')}`)
    .option('--allow <rule>', 'allow rule, repeatable', collect)
    .option('--deny <rule>', 'deny rule, repeatable', collect)
    .option('--allowedTools <rules>', "Claude Code's form of allow rules", collect)
    .option('--disallowedTools <rules>', "Claude Code's form of deny rules", collect)
    .option('--system-prompt <text>', 'replace the system prompt')
    .option('--append-system-prompt <text>', 'add text at the end of the system prompt')
    .option('--inspect [port]', 'serve the live inspector on 127.0.0.1 (its URL goes to stderr)')
    .option('--model-script <file>', 'use a scripted model instead of the API')
    .option('--sandbox', 'run bash inside an OS sandbox (bubblewrap)')
    .option('--no-sandbox', 'run bash without the sandbox, whatever the settings say')
    .option('--trust', "use the workspaces' project MCP servers, hooks and allow rules without asking (env XAGENT_TRUST=1)")
    .option('--max-thinking-tokens <n>', 'extended thinking budget, >= 1024')
    .option('--context-window <tokens>', 'context window for compaction')
    .action(async (_local: RawOptions, command: Command) => {
      // The root command knows most of these flags too and takes them wherever they stand: merge both.
      const raw = command.optsWithGlobals<RawOptions>();
      const { serveAcp } = await import('./serve.js');
      setExit(await serveAcp(raw));
    });
}
