/**
 * Claude Code's tool names, as its settings files and hook matchers write them, and the xagent
 * tools each one stands for. Claude Code applies a `Read` rule to every tool that reads files
 * (Grep, Glob, LS) and an `Edit` rule to every tool that edits them (Write, MultiEdit,
 * NotebookEdit); the table says the same in xagent's tools.
 */
export const CLAUDE_CODE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Bash: ['bash'],
  Read: ['read_file', 'list_dir', 'glob', 'grep'],
  Edit: ['edit_file', 'write_file'],
  Write: ['write_file'],
  MultiEdit: ['edit_file'],
  Glob: ['glob'],
  Grep: ['grep'],
  LS: ['list_dir'],
  // Subagents: the `task` tool, where the run has it.
  Task: ['task'],
  Agent: ['task'],
  // Tools xagent does not have: rules for them are kept (and match nothing), with a warning.
  NotebookEdit: [],
  NotebookRead: [],
  WebFetch: [],
  WebSearch: [],
  SlashCommand: [],
  Skill: [],
  TodoWrite: [],
  TodoRead: [],
  BashOutput: [],
  KillShell: [],
  KillBash: [],
  ExitPlanMode: [],
  AskUserQuestion: [],
  LSP: [],
  ListMcpResourcesTool: [],
  ReadMcpResourceTool: [],
  // Claude Code's screen calls an Edit of an existing file "Update"; Claude Code matches no rule by it.
  Update: [],
};

/** The name each xagent tool has in Claude Code, for hook input and matchers (`bash` is `Bash`). */
export const CLAUDE_CODE_NAME_OF: Readonly<Record<string, string>> = {
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  list_dir: 'LS',
  glob: 'Glob',
  grep: 'Grep',
  task: 'Task',
};

/** True for a tool name Claude Code has, whether or not xagent has the tool. */
export function isClaudeCodeToolName(name: string): boolean {
  return Object.hasOwn(CLAUDE_CODE_TOOLS, name);
}

/**
 * The xagent tools a Claude Code name stands for that this run has; empty when it has none.
 * @example xagentToolsOf('Read', ['read_file', 'glob', 'bash']) // ['read_file', 'glob']
 */
export function xagentToolsOf(name: string, known: readonly string[]): string[] {
  return (CLAUDE_CODE_TOOLS[name] ?? []).filter((tool) => known.includes(tool));
}

/** Other names Claude Code has for a tool: it renamed `Task` to `Agent`, and hook matchers use either. */
const CLAUDE_CODE_ALIASES: Readonly<Record<string, readonly string[]>> = { task: ['Agent'] };

/**
 * Every name a hook matcher may give an xagent tool: its own, Claude Code's, and Claude Code's other ones.
 * @example toolNamesForMatchers('task') // ['task', 'Task', 'Agent']
 */
export function toolNamesForMatchers(tool: string): string[] {
  return [tool, claudeCodeName(tool), ...(CLAUDE_CODE_ALIASES[tool] ?? [])];
}

/**
 * Claude Code's name for an xagent tool; MCP and custom tools keep theirs.
 * @example claudeCodeName('bash') // 'Bash'
 */
export function claudeCodeName(tool: string): string {
  return CLAUDE_CODE_NAME_OF[tool] ?? tool;
}
